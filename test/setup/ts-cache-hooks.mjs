// Module hooks for the test processes: TypeScript transpiled once per
// content and kept on disk, so each of the suite's ~120 test processes reads
// compiled JavaScript instead of starting TypeScript (about 2 s of CPU per
// process with ts-node, a third of the suite's time). This is the suite's
// only TypeScript loader (.taprc drops tap's @tapjs/typescript plugin).
// Transpile only, like tap's own ts-node setup: `npm run typecheck` checks
// the types.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = join(root, 'node_modules', '.cache', 'robotctl-ts');
let ts = null;
// Bump when the transpile options below change: it is part of every cache key.
const OPTIONS_TAG = 'esnext-es2022-inline-maps-v1';

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
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256').update(`${OPTIONS_TAG}\0${path}\0`).update(source).digest('hex').slice(0, 32);
  const cached = join(cacheDir, `${key}.js`);
  if (existsSync(cached)) return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  ts ??= (await import('typescript')).default;
  const out = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false, inlineSourceMap: true, inlineSources: true,
      esModuleInterop: true, isolatedModules: true,
    },
  }).outputText;
  mkdirSync(dirname(cached), { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, out);
  renameSync(tmp, cached);
  return { format: 'module', source: out, shortCircuit: true };
}
