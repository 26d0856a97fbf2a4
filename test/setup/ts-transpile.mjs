// TypeScript transpiled once per file content and kept on disk
// (node_modules/.cache/robotctl-ts), shared by the module hooks of every test
// process (ts-cache-hooks.mjs) and by the `before` script, which fills the
// cache for the whole tree in one process (warmTsCache): on a fresh clone the
// first test processes would otherwise each load TypeScript (about 1 s of CPU)
// for the files not cached yet. Transpile only, like tap's own ts-node setup:
// `npm run typecheck` checks the types.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = join(root, 'node_modules', '.cache', 'robotctl-ts');
// Bump when the transpile options below change: it is part of every cache key.
const OPTIONS_TAG = 'esnext-es2022-inline-maps-v1';
let ts = null;

/** The JavaScript of the TypeScript file at `path` (absolute), from the cache or transpiled into it. */
export function transpileCached(path, source = readFileSync(path, 'utf8')) {
  const key = createHash('sha256').update(`${OPTIONS_TAG}\0${path}\0`).update(source).digest('hex').slice(0, 32);
  const cached = join(cacheDir, `${key}.js`);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  ts ??= createRequire(import.meta.url)('typescript');
  const out = ts.transpileModule(source, {
    fileName: path,
    compilerOptions: {
      module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false, inlineSourceMap: true, inlineSources: true,
      esModuleInterop: true, isolatedModules: true,
    },
  }).outputText;
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, out);
  renameSync(tmp, cached);
  return out;
}

const SKIP = new Set(['node_modules', 'dist', '.git', '.tap', 'test-output', '.robotctl']);

/** Transpiles every .ts file of the project not cached yet; returns how many files it saw. */
export function warmTsCache(dir = root) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) n += warmTsCache(p);
    else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) { transpileCached(p); n++; }
  }
  return n;
}
