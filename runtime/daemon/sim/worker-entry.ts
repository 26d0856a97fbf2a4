import { existsSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packagePath } from '../../../lib/paths.js';

// Which file the control thread starts from. The build bundles the worker
// into one CommonJS file (cli/build-bundle.mjs): a worker's start is CPU the
// daemon's start-up shares a core with, and the bundle saves its ES module
// loader and seven module files (about 15 of 70 ms of CPU, measured). Without
// a fresh bundle (tsc run after the build) the compiled module in dist/ is
// used; under the tests' TypeScript hooks, the source beside the caller.

const BUNDLE = 'robotctl-control.cjs';

function mtime(file: string): number | undefined {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

/** `caller` is the import.meta.url of control-clock (the CLI bundle's own URL when it runs from dist/robotctl.cjs). */
export function controlWorkerEntry(caller: string): URL {
  if (caller.endsWith('.ts')) return new URL('./control-worker.ts', caller);
  const bundle = packagePath('dist', BUNDLE);
  const bundleTime = mtime(bundle);
  if (bundleTime !== undefined && bundleTime >= (mtime(packagePath('dist', '.tsbuildinfo')) ?? 0)) return pathToFileURL(bundle);
  const beside = new URL('./control-worker.js', caller);
  return existsSync(fileURLToPath(beside)) ? beside : pathToFileURL(packagePath('dist', 'runtime', 'daemon', 'sim', 'control-worker.js'));
}
