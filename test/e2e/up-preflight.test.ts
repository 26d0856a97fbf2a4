import t from 'tap';
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { freePort, portFree } from '../helpers/ports.js';
import { upFleetYaml } from './helpers.js';

// `robotctl up` checks what the robots' Python apps need before it starts
// anything: python3, its venv module, and (offline) the wheel package as a
// local file. A missing piece is one message with the fix, exit 1, no stack
// trace, and nothing started: no hub folder, no robot folder, no bound port.
// The built CLI runs in a child process with the machine made to lack the
// piece: a PATH without python3, ROBOTCTL_PYTHON naming a Python without
// ensurepip (Debian without python3-venv) or an old one, ROBOTCTL_WHEELS_DIR
// naming a folder without the wheel file, PIP_NO_INDEX for offline.

function fleet(dir: string, ports: { receiver: number; desk: number }): string {
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, upFleetYaml({ receiver: ports.receiver, robots: { desk: ports.desk }, apps: ['hello_app'], active: 'hello_app', watched: ['hello_app'] }));
  return file;
}

function script(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

interface Case { name: string; env: (dir: string) => NodeJS.ProcessEnv; message: (dir: string) => string }

const cases: Case[] = [
  {
    name: 'no python3 on the PATH',
    env: (dir) => ({ PATH: join(dir, 'empty-bin') }),
    message: () => "python3 not found (ROBOTCTL_PYTHON names another Python). Fix: apt-get install python3 python3-venv",
  },
  {
    name: 'a Python without venv (no ensurepip) and, offline, no wheel file',
    env: (dir) => {
      mkdirSync(join(dir, 'no-ensurepip', 'ensurepip'), { recursive: true });
      writeFileSync(join(dir, 'no-ensurepip', 'ensurepip', '__init__.py'), 'raise ModuleNotFoundError("No module named \'ensurepip\'", name="ensurepip")\n');
      const py = script(join(dir, 'python-without-venv'), `PYTHONPATH=${join(dir, 'no-ensurepip')} exec python3 "$@"`);
      return { ROBOTCTL_PYTHON: py, ROBOTCTL_WHEELS_DIR: join(dir, 'no-wheels'), PIP_NO_INDEX: '1' };
    },
    message: (dir) => `${join(dir, 'python-without-venv')} cannot create virtual environments (no module ensurepip); offline (PIP_NO_INDEX is set), pip needs the 'wheel' package as a local file, and there is no ${join(dir, 'no-wheels')}/wheel-*.whl. Fix: apt-get install python3-venv python3-wheel-whl`,
  },
  {
    name: 'only the wheel file missing, offline',
    env: (dir) => ({ ROBOTCTL_WHEELS_DIR: join(dir, 'no-wheels'), PIP_NO_INDEX: '1' }),
    message: (dir) => `offline (PIP_NO_INDEX is set), pip needs the 'wheel' package as a local file, and there is no ${join(dir, 'no-wheels')}/wheel-*.whl. Fix: apt-get install python3-wheel-whl`,
  },
  {
    name: 'a Python older than 3.10',
    env: (dir) => ({ ROBOTCTL_PYTHON: script(join(dir, 'python38'), 'echo 3.8; echo venv-ok') }),
    message: (dir) => `${join(dir, 'python38')} is Python 3.8; apps need 3.10 or newer: install one and name it in ROBOTCTL_PYTHON`,
  },
];

for (const c of cases) {
  t.test(`up stops before starting anything: ${c.name}`, async (t) => {
    const dir = t.testdir({ 'empty-bin': {}, 'no-wheels': {}, wheels: { 'wheel-0.38.4-py3-none-any.whl': '' } });
    const ports = { receiver: await freePort(), desk: await freePort() };
    const file = fleet(dir, ports);
    const data = join(dir, 'data');
    // The wheel file is there unless a case says otherwise, whatever this machine has.
    const env = { ROBOTCTL_WHEELS_DIR: join(dir, 'wheels'), ...c.env(dir), WEBHOOK_SECRET: 'preflight-secret' };
    const res = await runCli(['up', '-f', file, '--data', data, '--hub-port', '0'], { env, timeoutMs: 60_000 });
    t.equal(res.code, 1, `exit 1\n${res.stdout}\n${res.stderr}`);
    t.equal(res.stderr, `Error: robotctl up cannot run the robots' Python apps on this machine: ${c.message(dir)}\n`);
    t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
    t.equal(res.stdout, '', 'nothing was started, so nothing was announced');
    t.same(existsSync(data) ? readdirSync(data).filter((n) => !n.startsWith('.')) : [], [], 'no hub or robot folder was made');
    for (const port of Object.values(ports)) t.ok(await portFree(port), `port ${port} was never bound`);
  });
}
