import { rmSync } from 'node:fs';
import { ownRunFolder } from './run-folder.mjs';

// tap's `after` script (.taprc), run once every test file has ended: the
// run's temporary folder goes, with the venvs and caches the suite built
// there (test/setup/run-folder.mjs). The suite leaves nothing in the
// shared-memory or temp folders; `.ci/run` checks.
const dir = ownRunFolder();
if (dir) {
  rmSync(dir, { recursive: true, force: true });
  console.error(`# removed the run's temporary folder ${dir}`);
}
