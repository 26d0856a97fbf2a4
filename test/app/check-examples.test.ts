import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';
import { examplesDir } from './helpers.js';

// The committed example apps pass `app check` (each a pip install and
// uninstall: its own file, so check.test.ts stays well inside tap's per-file
// limit on a loaded machine). The base venv is the run's shared one.
// No package index here (PIP_NO_INDEX): installs use the reachy_mini stand-in.
const env = { ...process.env, ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE, PIP_NO_INDEX: '1' };

t.test('every example app passes app check', async (t) => {
  const apps = ['hello_app', 'wave_app', 'crash_app', 'stubborn_app', 'oneshot_app'];
  // Two at a time: the CI box has two cores.
  for (let i = 0; i < apps.length; i += 2) {
    await Promise.all(apps.slice(i, i + 2).map(async (name) => {
      const r = await runInProcess(['app', 'check', join(examplesDir, name)], { env });
      t.equal(r.code, 0, `${name}: ${r.stderr}`);
      t.ok(r.stdout.endsWith(`[OK] App '${name}' passed all checks!\n`), name);
    }));
  }
  for (const name of apps) t.notOk(existsSync(join(examplesDir, name, 'build')), `${name}: no build/ left`);
});

