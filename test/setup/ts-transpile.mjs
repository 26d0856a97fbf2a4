// TypeScript transpiled once per file content and kept on disk
// (node_modules/.cache/robotctl-ts), shared by the module hooks of every test
// process (ts-cache-hooks.mjs) and by the `before` script, which fills the
// cache for the whole tree at once (warmTsCache). Transpile only (types are
// erased, never checked: `npm run typecheck` checks them), done by esbuild,
// which the build already uses for the bundles: TypeScript's own
// transpileModule took about 10 s of one core for the tree, esbuild well under
// one, and a test process that meets an uncached file no longer loads all of
// TypeScript (about 1 s of CPU) to transpile it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheDir = join(root, 'node_modules', '.cache', 'robotctl-ts');
const require = createRequire(import.meta.url);
let esbuild = null;

// What tsconfig.json's compilation means for one file on its own: ES2022
// class fields (define semantics, as tsc emits for that target), ES modules,
// an inline source map so stack traces name the .ts lines.
const options = (path) => ({
  loader: 'ts', format: 'esm', target: 'es2022', sourcemap: 'inline', sourcefile: path,
  tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: false } },
});
// Part of every cache key: bump it when the options above change.
const OPTIONS_TAG = `esbuild-${require('esbuild/package.json').version}-es2022-esm-inline-maps-v1`;

function cachePath(path, source) {
  const key = createHash('sha256').update(`${OPTIONS_TAG}\0${path}\0`).update(source).digest('hex').slice(0, 32);
  return join(cacheDir, `${key}.js`);
}

function store(cached, out) {
  mkdirSync(cacheDir, { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, out);
  renameSync(tmp, cached);
  return out;
}

/** The JavaScript of the TypeScript file at `path` (absolute), from the cache or transpiled into it. */
export function transpileCached(path, source = readFileSync(path, 'utf8')) {
  const cached = cachePath(path, source);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  esbuild ??= require('esbuild');
  return store(cached, esbuild.transformSync(source, options(path)).code);
}

const SKIP = new Set(['node_modules', 'dist', '.git', '.tap', 'test-output', '.robotctl']);

function tsFiles(dir, into = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, into);
    else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) into.push(p);
  }
  return into;
}

/** Transpiles every .ts file of the project not cached yet (esbuild's service, all at once); resolves to how many files it saw. */
export async function warmTsCache(dir = root) {
  const files = tsFiles(dir);
  esbuild ??= require('esbuild');
  await Promise.all(files.map(async (path) => {
    const source = readFileSync(path, 'utf8');
    const cached = cachePath(path, source);
    if (!existsSync(cached)) store(cached, (await esbuild.transform(source, options(path))).code);
  }));
  return files.length;
}
