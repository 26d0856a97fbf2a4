import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';

// Code runs from dist/<area>/… after the build and from <area>/… under tap;
// both find the package root by walking up to package.json.
function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'robotctl.js'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`package root not found above ${start}`);
    dir = up;
  }
}

export const packageRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of a file shipped in the package (sdk/python, examples, runtime assets). */
export function packagePath(...parts: string[]): string {
  return join(packageRoot, ...parts);
}
