import { join } from 'node:path';
import type { Io } from '../../lib/io.js';
import { checkLayout, type AppLayout } from './rules.js';
import { pip, temporaryVenv, VenvError, type CheckVenv } from '../../lib/python-apps/check-venv.js';
import { copySource } from '../../lib/python-apps/files.js';
import { fail, info, ok } from './report.js';
import { runProcess, tail } from '../../lib/python-apps/process.js';
import { packageIndex, type IndexMode } from '../../lib/python-apps/package-index.js';
import { sdkDir } from '../../lib/python-apps/sdk.js';

const REGISTERED = [
  'import sys',
  'from importlib.metadata import entry_points',
  "sys.exit(0 if sys.argv[1] in [ep.name for ep in entry_points(group='reachy_mini_apps')] else 1)",
].join('\n');

async function registered(venv: CheckVenv, name: string): Promise<boolean> {
  return (await runProcess(venv.python, ['-c', REGISTERED, name], { env: venv.env })).code === 0;
}

async function installApp(app: AppLayout, venv: CheckVenv, tmp: string, mode: IndexMode, io: Io): Promise<void> {
  const source = join(tmp, 'app');
  copySource(app.root, source);
  info(io, 'Installing the app in the temporary virtual environment...');
  const args = mode.online ? ['install', source] : ['install', '--no-index', '--no-build-isolation', source];
  const installed = await pip(venv, args);
  if (installed.code !== 0) fail(io, `pip install of the app failed:\n${tail(installed.stderr || installed.stdout)}`);
}

async function installCycle(app: AppLayout, venv: CheckVenv, tmp: string, mode: IndexMode, io: Io): Promise<void> {
  await installApp(app, venv, tmp, mode, io);
  info(io, 'Checking that the app entrypoint is registered...');
  if (!(await registered(venv, app.name))) fail(io, `App '${app.name}' entrypoint is not registered correctly.`);
  ok(io, 'App entrypoint is registered correctly.');
  info(io, 'Uninstalling the app from the temporary virtual environment...');
  const removed = await pip(venv, ['uninstall', '-y', app.name]);
  if (removed.code !== 0 || (await registered(venv, app.name))) fail(io, `App '${app.name}' was not uninstalled correctly.`);
  ok(io, 'App installation and uninstallation tests passed.');
}

/** `robotctl app check PATH`: the file rules, then the install/uninstall cycle in a temporary venv. */
export async function checkApp(path: string, io: Io, opts: { offline?: boolean } = {}): Promise<AppLayout> {
  const app = await checkLayout(path, io);
  const mode = await packageIndex(io.env, opts);
  info(io, '\nCreating a temporary virtual environment to test the app...');
  if (!mode.online) info(io, `Offline (${mode.reason}): robotctl's reachy_mini stand-in meets the reachy-mini dependency.`);
  let temp: Awaited<ReturnType<typeof temporaryVenv>>;
  try {
    temp = await temporaryVenv(io.env, { online: mode.online, standIn: mode.online ? null : sdkDir() });
  } catch (err) {
    if (err instanceof VenvError) fail(io, err.message);
    throw err;
  }
  try {
    await installCycle(app, temp.venv, temp.tmp, mode, io);
  } finally {
    temp.dispose();
  }
  ok(io, `App '${app.name}' passed all checks!`);
  return app;
}
