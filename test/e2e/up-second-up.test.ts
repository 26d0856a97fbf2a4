import t from 'tap';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, pathWithoutRobotctl, runInProcess, runProcess, spawnLongRunning } from '../helpers/cli.js';
import { freePort } from '../agent/fixture.js';

// A second `up` is refused before it touches anything, and a refused or
// failed one changes nothing of the running session: its env file (HF_ENDPOINT
// and HF_TOKEN that `plan` in another terminal reads), its state, its hub's
// data and token. The refusal names what would work.

function fleet(dir: string, receiver: number): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, `version: 1
webhooks:
  notify:
    url: http://127.0.0.1:${receiver}/webhooks/redeploy
    watched: [user:demo]
    secret: \${WEBHOOK_SECRET}
receiver:
  port: ${receiver}
  secret: \${WEBHOOK_SECRET}
  endpoints:
    redeploy: { action: reconcile }
`);
  return file;
}

/** Every file under dir with its bytes and mtime: what "changes nothing" compares. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && !p.endsWith('.log')) out[p] = `${statSync(p).mtimeMs} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}

t.test('a second up of the same folder, on another data folder and hub port, is refused and changes nothing', async (t) => {
  const dir = t.testdir();
  const receiver = await freePort();
  const file = fleet(dir, receiver);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  delete env.WEBHOOK_SECRET;
  const first = spawnLongRunning(t, ['up', '-f', file, '--hub-port', '0'], env);
  // The ready block (hub URL included) ends with the Ctrl-C line; it may arrive in chunks.
  await first.waitFor('Ctrl-C stops everything', 120_000);
  t.match(first.output(), /robotctl up: ready/, first.output());
  const hubUrl = /hub +(http:\/\/127\.0\.0\.1:\d+)/.exec(first.stdout())?.[1] ?? '';
  const kept = join(dir, '.robotctl');
  const before = snapshot(kept);
  t.ok(Object.keys(before).some((f) => f.endsWith('state.json')), 'the state is there to compare');
  t.match(readFileSync(join(kept, 'env'), 'utf8'), /^HF_TOKEN=/m);

  // As the issue ran it: another data folder and hub port, same file.
  const second = await runInProcess(['up', '-f', file, '--data', join(dir, 'other'), '--hub-port', String(await freePort())], { env: { PATH: pathWithoutRobotctl() }, cwd: dir });
  t.equal(second.code, 1);
  t.equal(second.stderr, `Error: robotctl up (pid ${first.child.pid ?? 0}) is already running fleet.yaml, and every up of that folder shares its .robotctl/ (state, env file): `
    + `use that session from another terminal (node ${bin} plan -f fleet.yaml), or stop it first (Ctrl-C in its terminal). `
    + 'A second session needs its own folder (a copy of the file and its apps) with other ports for its robots, receiver and hub (--hub-port).\n');
  t.equal(second.stdout, '');
  // The same data folder too.
  const third = await runInProcess(['up', '-f', file, '--hub-port', '0'], { env: { PATH: process.env.PATH ?? '' } });
  t.equal(third.code, 1);
  t.match(third.stderr, `robotctl up (pid ${first.child.pid ?? 0}) is already running`);
  t.same(snapshot(kept), before, 'the env file, the state, the token and the hub data are untouched');
  t.notOk(existsSync(join(dir, 'other')), 'the refused up made no data folder');

  // A copy of the folder with the same receiver port: refused before it starts or writes anything.
  const copy = join(dir, 'copy');
  fleet(copy, receiver);
  const fourth = await runInProcess(['up', '-f', 'fleet.yaml', '--hub-port', '0'], { env: { PATH: process.env.PATH ?? '' }, cwd: copy });
  t.equal(fourth.code, 1);
  t.equal(fourth.stderr, `Error: robotctl up cannot start fleet.yaml: port ${receiver} (the receiver) is in use, by another robotctl up or another program. `
    + 'Stop it first, or give this file other ports (the robots\' url, receiver.port) and --hub-port; nothing was started or written.\n');
  t.notOk(existsSync(join(copy, '.robotctl', 'env')), 'the copy got no secret');
  t.same(snapshot(kept), before, 'the running session is still untouched');

  // A fresh terminal still finds the running session through the env file.
  const plan = await runProcess(process.execPath, [bin, 'plan', '-f', file], { PATH: process.env.PATH ?? '', NO_COLOR: '1' });
  t.equal(plan.code, 0, `${plan.stdout}\n${plan.stderr}`);
  t.match(plan.stdout, /No changes\./);
  t.match(plan.stderr, /using HF_ENDPOINT, HF_TOKEN, WEBHOOK_SECRET from /);
  const token = readFileSync(join(kept, 'up', 'hub-token'), 'utf8').trim();
  const whoami = await fetch(`${hubUrl}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
  t.equal(whoami.status, 200, 'the first hub still accepts its token');

  first.child.kill('SIGINT');
  t.equal(await first.exited, 0);
  t.notMatch(readFileSync(join(kept, 'env'), 'utf8'), /HF_TOKEN|HF_ENDPOINT/, 'the stopped session forgets its hub');
  const again = spawnLongRunning(t, ['up', '-f', file, '--hub-port', '0'], env);
  await again.waitFor('robotctl up: ready', 120_000);
  t.match(again.stdout(), /robotctl up: ready/, 'after the first stopped, up starts again on the folder');
  t.equal(readFileSync(join(kept, 'up', 'hub-token'), 'utf8').trim(), token, 'and keeps the same token');
  again.child.kill('SIGINT');
  t.equal(await again.exited, 0);
});

t.test('a stopping up removes from the env file only the values it wrote', async (t) => {
  const dir = t.testdir();
  const file = fleet(dir, await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', WEBHOOK_SECRET: 'kept-apart' };
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const up = spawnLongRunning(t, ['up', '-f', file, '--hub-port', '0'], env);
  await up.waitFor('Ctrl-C stops everything', 120_000);
  // Someone (another tool, a later session) points HF_ENDPOINT elsewhere meanwhile.
  const envFile = join(dir, '.robotctl', 'env');
  const text = readFileSync(envFile, 'utf8').replace(/^HF_ENDPOINT=.*$/m, 'HF_ENDPOINT=http://127.0.0.1:1');
  writeFileSync(envFile, text, { mode: 0o600 });
  up.child.kill('SIGINT');
  t.equal(await up.exited, 0);
  const left = readFileSync(envFile, 'utf8');
  t.match(left, /^HF_ENDPOINT=http:\/\/127\.0\.0\.1:1$/m, 'a value it did not write stays');
  t.notMatch(left, /HF_TOKEN/, 'its own token goes');
});
