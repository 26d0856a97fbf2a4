import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { entryPointsIn } from './entry-points.js';

// The dashboard's settings icon opens an app's own web UI, which the app
// declares as the class attribute `custom_app_url = "http://0.0.0.0:8042"`.
// The daemon never imports the app (it only runs `python -m <pkg>.main`), so
// the value is read from the installed main.py's source once, at install.
const ATTRIBUTE = /^\s+custom_app_url\s*(?::[^=\n]*)?=\s*["']([^"'\n]+)["']/m;

export function customAppUrlIn(source: string): string | null {
  return ATTRIBUTE.exec(source)?.[1] ?? null;
}

/** The custom_app_url of the first app module in an installed version folder, if it sets one. */
export async function customAppUrl(versionDir: string): Promise<string | null> {
  for (const ep of await entryPointsIn(versionDir)) {
    const file = join(versionDir, ...ep.module.split('.')) + '.py';
    if (!existsSync(file)) continue;
    const url = customAppUrlIn(await readFile(file, 'utf8'));
    if (url) return url;
  }
  return null;
}
