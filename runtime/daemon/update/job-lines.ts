import { createHash, randomBytes } from 'node:crypto';

// The log lines of the real daemon's update job (utils/wireless_version/
// update.py and utils.py): the commands it runs, each after `Running:`, and
// pip's own output, for an update from PyPI (`/api/update/start`) or from a
// git ref (`/api/update/start-from-ref`). pip's output is abridged to the
// lines a reader looks for (what was collected, uninstalled, installed, and
// why it failed); the commands are built exactly as the real ones.

const REPO = 'pollen-robotics/reachy_mini';
const APPS_PIP = '/venvs/apps_venv/bin/pip';

/** Python's shlex.quote: single quotes unless every character is safe. */
function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'"'"'`)}'`;
}
const join = (args: string[]): string => args.map(quote).join(' ');

export interface Step {
  command: string;
  /** pip's output when the step succeeds. */
  output: string[];
}

function gitCommand(pip: string, extras: string, ref: string): string {
  const pkg = `reachy-mini[${extras}]`;
  const step1 = join([pip, 'install', `${pkg} @ git+https://github.com/${REPO}.git@${ref}`, '--force-reinstall', '--no-deps', '--no-cache-dir']);
  const step3 = join([pip, 'install', pkg, '--upgrade', '--upgrade-strategy', 'only-if-needed']);
  return `${step1} && ( ${join([pip, 'check'])} || ${step3} )`;
}

const commitOf = (version: string): string => createHash('sha1').update(`${REPO}@${version}`).digest('hex');

function swapLines(from: string, to: string): string[] {
  return [
    'Installing collected packages: reachy-mini',
    '  Attempting uninstall: reachy-mini',
    `    Found existing installation: reachy-mini ${from}`,
    `    Uninstalling reachy-mini-${from}:`,
    `      Successfully uninstalled reachy-mini-${from}`,
    `Successfully installed reachy-mini-${to}`,
  ];
}

function cloneLines(ref: string): string[] {
  const tmp = `/tmp/pip-install-${randomBytes(4).toString('hex')}/reachy-mini_${randomBytes(16).toString('hex')}`;
  return [
    `Collecting reachy-mini@ git+https://github.com/${REPO}.git@${ref}`,
    `  Cloning https://github.com/${REPO}.git (to revision ${ref}) to ${tmp}`,
    `  Running command git clone --filter=blob:none --quiet https://github.com/${REPO}.git ${tmp}`,
  ];
}

/** The commit a release's tag points at in the simulation (stable, as a tag's is). */
export function simCommit(version: string): string {
  return commitOf(version).slice(0, 8);
}

/** The two installs of an update from a git ref that exists: the daemon's venv, then the apps' venv. */
export function gitRefSteps(ref: string, from: string, to: string): Step[] {
  const built = [
    `  Resolved https://github.com/${REPO}.git to commit ${commitOf(to)}`,
    '  Installing build dependencies: started',
    "  Installing build dependencies: finished with status 'done'",
    "  Preparing metadata (pyproject.toml): finished with status 'done'",
    'Building wheels for collected packages: reachy-mini',
    `  Created wheel for reachy-mini: filename=reachy_mini-${to}-py3-none-any.whl`,
    'Successfully built reachy-mini',
  ];
  return [
    { command: gitCommand('pip', 'wireless-version', ref), output: [...cloneLines(ref), ...built, ...swapLines(from, to), 'No broken requirements found.'] },
    { command: gitCommand(APPS_PIP, '', ref), output: [...cloneLines(ref), ...built, ...swapLines(from, to), 'No broken requirements found.'] },
  ];
}

/** The daemon venv's install of a ref no tag or branch has: pip's git checkout fails (exit code 1). */
export function unknownRefStep(ref: string): Step {
  const failure = [`× git checkout -q ${ref} did not run successfully.`, '│ exit code: 1', '╰─> See above for output.', 'note: This error originates from a subprocess, and is likely not a problem with pip.'];
  return {
    command: gitCommand('pip', 'wireless-version', ref),
    output: [
      ...cloneLines(ref),
      `  WARNING: Did not find branch or tag '${ref}', assuming revision or ref.`,
      `  Running command git checkout -q ${ref}`,
      `  error: pathspec '${ref}' did not match any file(s) known to git`,
      '  error: subprocess-exited-with-error',
      ...failure.map((l) => `  ${l}`),
      'error: subprocess-exited-with-error',
      ...failure,
    ],
  };
}

/** The two installs of an update from PyPI (`pip install 'reachy-mini[wireless-version]' --upgrade`). */
export function pypiSteps(preRelease: boolean, from: string, to: string): Step[] {
  const pre = preRelease ? ['--pre'] : [];
  const download = [`  Downloading reachy_mini-${to}-py3-none-any.whl`];
  return [
    { command: join(['pip', 'install', 'reachy-mini[wireless-version]', ...pre, '--upgrade']), output: ['Collecting reachy-mini[wireless-version]', ...download, ...swapLines(from, to)] },
    { command: join([APPS_PIP, 'install', 'reachy-mini[]', ...pre, '--upgrade']), output: ['Collecting reachy-mini[]', ...download, ...swapLines(from, to)] },
  ];
}

