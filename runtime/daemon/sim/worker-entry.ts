import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packagePath } from '../../../lib/paths.js';

// Which file the control thread starts from. The build bundles the worker
// into one CommonJS file (cli/build-bundle.mjs): a worker's start is CPU the
// daemon's start-up shares a core with, and the bundle saves its ES module
// loader and seven module files (about 15 of 70 ms of CPU, measured). The
// bundle's path and the rule for a fresh one (not older than tsc's last
// output) are the launcher's (bin/bundle-loader.js), as for the CLI bundle.
// Without a fresh bundle the compiled module in dist/ is used; under the
// tests' TypeScript hooks, the source beside the caller.

interface BundleLoader {
  CONTROL: string;
  isFresh(file: string): boolean;
}

/** `caller` is the import.meta.url of control-clock (the CLI bundle's own URL when it runs from dist/robotctl.cjs). */
export function controlWorkerEntry(caller: string): URL {
  if (caller.endsWith('.ts')) return new URL('./control-worker.ts', caller);
  const loader = createRequire(import.meta.url)(packagePath('bin', 'bundle-loader.js')) as BundleLoader;
  if (loader.isFresh(loader.CONTROL)) return pathToFileURL(loader.CONTROL);
  const beside = new URL('./control-worker.js', caller);
  return existsSync(fileURLToPath(beside)) ? beside : pathToFileURL(packagePath('dist', 'runtime', 'daemon', 'sim', 'control-worker.js'));
}
