import { resolve, sep } from 'node:path';
import { HttpError } from '../errors.js';
import { appNameProblem } from '../../../lib/python-apps/names.js';

// Every app name that reaches the filesystem (a version folder, a metadata
// file, a .pth file) passes the app-name rules first
// (lib/python-apps/names.ts), and every path built from one is resolved and
// checked to stay under its root.

/** A 400 whose detail names the refused value and the rule it breaks. */
export function checkAppName(name: string, field = 'app_name'): string {
  const problem = appNameProblem(name);
  if (problem) throw new HttpError(400, `Invalid ${field} ${JSON.stringify(name)}: ${problem}`);
  return name;
}

/** root/…parts, refused unless it resolves strictly inside root. */
export function confined(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const full = resolve(base, ...parts);
  if (!full.startsWith(base + sep)) throw new HttpError(400, `Refusing a path outside ${base}: ${JSON.stringify(parts.join('/'))}`);
  return full;
}
