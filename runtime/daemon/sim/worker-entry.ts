import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packagePath } from '../../../lib/paths.js';

// Which file the control thread starts from: the compiled module beside the
// caller (dist/runtime/daemon/sim/), or dist's when the caller is the CLI
// bundle (dist/robotctl.cjs); under the tests' TypeScript hooks, the source
// beside the caller.

/** `caller` is the import.meta.url of control-clock (the CLI bundle's own URL when it runs from dist/robotctl.cjs). */
export function controlWorkerEntry(caller: string): URL {
  if (caller.endsWith('.ts')) return new URL('./control-worker.ts', caller);
  const beside = new URL('./control-worker.js', caller);
  return existsSync(fileURLToPath(beside)) ? beside : pathToFileURL(packagePath('dist', 'runtime', 'daemon', 'sim', 'control-worker.js'));
}
