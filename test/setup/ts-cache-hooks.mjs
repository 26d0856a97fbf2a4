// Module hooks for the test processes: TypeScript transpiled once per
// content and kept on disk, so each of the suite's ~120 test processes reads
// compiled JavaScript instead of starting TypeScript (about 2 s of CPU per
// process with ts-node, a third of the suite's time). This is the suite's
// only TypeScript loader (.taprc drops tap's @tapjs/typescript plugin).
// The transpiling and its cache are in ts-transpile.mjs.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { root, transpileCached } from './ts-transpile.mjs';

function ours(path) {
  return path.startsWith(root) && !path.includes('/node_modules/');
}

export async function resolve(specifier, context, next) {
  // Sources import each other as `./x.js` (NodeNext); the file is `./x.ts`.
  if (specifier.endsWith('.js') && (specifier.startsWith('.') || specifier.startsWith('file:')) && context.parentURL?.startsWith('file:')) {
    const url = new URL(specifier, context.parentURL);
    const path = fileURLToPath(url);
    if (ours(path) && !existsSync(path)) {
      const tsPath = `${path.slice(0, -3)}.ts`;
      if (existsSync(tsPath)) return { url: pathToFileURL(tsPath).href, format: 'module', shortCircuit: true };
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  return { format: 'module', source: transpileCached(fileURLToPath(url)), shortCircuit: true };
}
