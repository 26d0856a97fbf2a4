// Module hooks that trim what tap itself costs each test process (registered
// by processinfo-off.mjs, first of all, when coverage is off):
// - `tap` resolves to the one-module bundle the `before` script built
//   (tap-bundle.mjs), when it is there, through its entry, which puts
//   t.testdir() folders in the run's temporary folder.
// - tap's process-tracking --import (@tapjs/processinfo) resolves to an empty
//   module: see processinfo-off.mjs.
// - ES modules under node_modules lose their `//# sourceMappingURL=` line.
//   tap starts test processes with --enable-source-maps, so Node read and
//   parsed the map of each of tap's ~150 modules as it loaded them (about
//   80 ms of CPU per process). The tests' own TypeScript keeps its maps, so a
//   failure still points at the .ts line.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { TAP_BUNDLE, TAP_ENTRY } from './tap-bundle.mjs';

const TRACKER = '/@tapjs/processinfo/dist/esm/import.mjs';
const bundle = existsSync(TAP_BUNDLE) && existsSync(TAP_ENTRY) ? pathToFileURL(TAP_BUNDLE).href : null;
const entry = bundle ? pathToFileURL(TAP_ENTRY).href : null;
const MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\s*$/;

export async function resolve(specifier, context, next) {
  if (specifier === 'tap' && entry) return { url: entry, shortCircuit: true };
  if (specifier.endsWith(TRACKER)) return { url: 'data:text/javascript,', shortCircuit: true };
  return next(specifier, context);
}

export async function load(url, context, next) {
  const loaded = await next(url, context);
  // The bundle (esbuild, no source map) is 800 KB: not decoded for nothing.
  if (loaded.format !== 'module' || !loaded.source || url === bundle || !url.includes('/node_modules/')) return loaded;
  return { ...loaded, source: String(loaded.source).replace(MAP_COMMENT, '\n') };
}
