import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, pathWithoutRobotctl, runInProcess, runProcess, spawnLongRunning, type ProcessResult } from '../helpers/cli.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { freePort, portFree } from '../helpers/ports.js';
import { alive } from '../helpers/processes.js';
import { until } from '../helpers/wait.js';
import { CHECK_VENV_CACHE } from '../helpers/python-venvs.js';

// `robotctl up` as a user runs it (the built CLI in a child process): it
// gets ready, the robots run their active apps, the loop its "Next:" hint
// prints works as written (publish, or clone and git push), and Ctrl-C
// leaves nothing behind: no app process, no bound port.

function fleetFile(dir: string, ports: { receiver: number; desk: number; lab: number; lab2?: number }): string {
  const file = join(dir, 'fleet.yaml');
  writeFileSync(file, `version: 1
webhooks:
  redeploy-apps:
    url: http://127.0.0.1:${ports.receiver}/webhooks/redeploy
    watched: [space:demo/hello_app, space:demo/wave_app]
    domains: [repo]
    secret: \${WEBHOOK_SECRET}
apps:
  hello_app: { source: https://huggingface.co/spaces/demo/hello_app }
  wave_app: { source: https://huggingface.co/spaces/demo/wave_app }
active: hello_app
robots:
  desk: { url: http://127.0.0.1:${ports.desk}, apps: [hello_app] }
  lab-1: { url: http://127.0.0.1:${ports.lab}, apps: [wave_app], active: wave_app }
${ports.lab2 === undefined ? '' : `  lab-2: { url: http://127.0.0.1:${ports.lab2}, apps: [hello_app] }\n`}rollout: { healthy_for: 1.5s }
receiver:
  port: ${ports.receiver}
  secret: \${WEBHOOK_SECRET}
  endpoints:
    redeploy: { action: reconcile }
`);
  return file;
}

/** Pids of processes whose working folder is under `dir` (the robots' app processes). */
function processesUnder(dir: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readlinkSync(`/proc/${name}/cwd`).startsWith(dir)) out.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

t.test('up starts everything, the robots run their active apps, its hint works as written, Ctrl-C stops all', { timeout: 300_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-up-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Three robots run real Reachy Mini apps at once (issue 11), each driving its own robot.
  const ports = { receiver: await freePort(), desk: await freePort(), lab: await freePort(), lab2: await freePort() };
  const file = fleetFile(dir, ports);
  // A fresh terminal after \`npm ci\`: no \`robotctl\` on the PATH, even on a machine that has one.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PATH: pathWithoutRobotctl() };
  delete env.WEBHOOK_SECRET;
  delete env.HF_TOKEN;
  delete env.HF_ENDPOINT;
  const up = spawnLongRunning(t, ['up', '-f', file, '--hub-port', '0'], env);
  // The ready block ends with the Ctrl-C line; it may arrive in several chunks.
  await up.waitFor('Ctrl-C stops everything', 120_000);
  const stdout = up.stdout();
  t.match(stdout, /robotctl up: ready\n/, `stdout:\n${stdout}\nstderr:\n${up.stderr()}`);
  t.notMatch(stdout, /Go to https:\/\/huggingface\.co\/settings\/webhooks/, 'up does not send the user to set up webhooks it creates itself');
  t.match(stdout, /are created and kept by this agent; nothing to set up by hand/);
  t.match(stdout, /  running install hello_app [0-9a-f]{7} on desk\.\.\.\n/, 'the agent says what it starts');
  t.match(stdout, /WEBHOOK_SECRET is not set: generated one and kept it in .*\.robotctl\/env \(0600\)/);
  t.match(stdout, new RegExp(`desk +http://127\\.0\\.0\\.1:${ports.desk}/`));
  t.match(stdout, new RegExp(`fleet page +http://127\\.0\\.0\\.1:${ports.receiver}/`));
  const tokenFile = join(dir, '.robotctl', 'up', 'hub-token');
  t.equal(statSync(tokenFile).mode & 0o777, 0o600, 'token file is 0600');
  const token = readFileSync(tokenFile, 'utf8').trim();
  t.notOk(up.output().includes(token), 'the token is never printed');
  const hubUrl = /hub +(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  const clone = join(dir, '.robotctl', 'up', 'clones', 'hello_app');
  const next = stdout.slice(stdout.indexOf('Next:'), stdout.indexOf('Ctrl-C stops everything'));
  t.equal(next, `Next: change hello_app and publish it; the robots that have it redeploy it within seconds. In another terminal, here:
  export HF_ENDPOINT=${hubUrl}
  export HF_TOKEN="$(cat ${tokenFile})"
  node bin/robotctl.js app publish examples/apps/hello_app
(node bin/robotctl.js is this clone's robotctl: \`npm link\` here once gives you the \`robotctl\` command.)
or with git, as Space authors work (the Space's remote is ${hubUrl}/spaces/demo/hello_app, the token its password):
  git clone -c credential.helper='!f() { echo username=demo; echo "password=$HF_TOKEN"; }; f' \\
    -c user.name=demo -c user.email=demo@localhost ${hubUrl}/spaces/demo/hello_app ${clone}
  echo "# tweak" >> ${clone}/README.md
  git -C ${clone} commit -am "Tweak" && git -C ${clone} push
Or edit ${file}: a save is applied at once.

`);

  const desk = createDaemonClient({ baseUrl: `http://127.0.0.1:${ports.desk}` });
  const lab = createDaemonClient({ baseUrl: `http://127.0.0.1:${ports.lab}` });
  t.equal((await desk.currentAppStatus())?.info.name, 'hello_app');
  t.equal((await lab.currentAppStatus())?.info.name, 'wave_app');
  const lab2 = createDaemonClient({ baseUrl: `http://127.0.0.1:${ports.lab2}` });
  t.equal((await lab2.currentAppStatus())?.info.name, 'hello_app');
  // Each app drives its own robot: all three poses keep changing.
  for (const [name, port] of [['desk', ports.desk], ['lab-1', ports.lab], ['lab-2', ports.lab2]] as const) {
    t.ok(await robotMoves(port), `${name}'s app moves ${name}`);
  }
  await desk.close();
  await lab.close();
  await lab2.close();
  const status = await (await fetch(`http://127.0.0.1:${ports.receiver}/status`)).json() as { drift: boolean };
  t.equal(status.drift, false, 'the fleet is converged');
  const apps = processesUnder(join(dir, '.robotctl'));
  t.ok(apps.length >= 3, `the three app processes run (${apps.join(', ')})`);

  // Another terminal: plan on the same file, with nothing exported, sees
  // up's hub, up's state and up's secret, so there is nothing to do.
  const envFile = join(dir, '.robotctl', 'env');
  t.equal(statSync(envFile).mode & 0o777, 0o600, 'the env file is 0600');
  t.match(readFileSync(envFile, 'utf8'), /^WEBHOOK_SECRET=[0-9a-f]{48}$/m);
  const plan = await runBin(['plan', '-f', file], env);
  t.equal(plan.code, 0, `plan exits 0\n${plan.stdout}\n${plan.stderr}`);
  t.match(plan.stdout, /No changes\. The hub and robots match robot\.yaml\./);
  t.match(plan.stderr, /using HF_ENDPOINT, HF_TOKEN, WEBHOOK_SECRET from .*\.robotctl\/env/);
  t.notOk(plan.stdout.includes(token) || plan.stderr.includes(token), 'plan never prints the token');

  // The hint's commands, run as written from up's working folder by a fresh
  // terminal after \`npm ci\` alone (no \`robotctl\` on its PATH, the hint says
  // \`node bin/robotctl.js\`) with a fresh HOME (no git identity, no
  // credentials): the publish finds nothing to change, the push reaches the
  // robot that runs hello_app.
  const script = next.split('\n').filter((l) => l.startsWith('  ')).join('\n');
  const ran = await runShell(`set -e\n${script}\n`, { ...env, HOME: join(dir, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', ROBOTCTL_CHECK_VENV_CACHE: CHECK_VENV_CACHE });
  t.equal(ran.code, 0, `the hint's commands work as written\n${ran.stdout}\n${ran.stderr}`);
  t.match(ran.stdout, /No changes: .*\/spaces\/demo\/hello_app already has these/, 'the unchanged example is not published again');
  t.notOk(ran.stdout.includes(token) || ran.stderr.includes(token), 'the token is never printed');
  const pushed = spawnSync('git', ['-C', clone, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  const deskAgain = createDaemonClient({ baseUrl: `http://127.0.0.1:${ports.desk}` });
  await until(async () => (await deskAgain.listInstalled()).find((a) => a.name === 'hello_app')?.extra.installed_sha === pushed, 120_000, `desk runs the pushed ${pushed}`);
  await until(async () => (await deskAgain.currentAppStatus())?.state === 'running', 60_000, 'desk runs hello_app again');
  t.equal((await deskAgain.currentAppStatus())?.info.name, 'hello_app', 'and runs it again');
  await deskAgain.close();
  t.notMatch(readFileSync(join(clone, '.git', 'config'), 'utf8'), new RegExp(token), 'the clone keeps no token');

  up.child.kill('SIGINT');
  t.equal(await up.exited, 0, `exit 0\n${up.stdout().slice(-500)}\n${up.stderr()}`);
  t.match(up.stdout(), /stopped\n$/);
  t.same(apps.filter(alive), [], 'no app process survives');
  t.same(processesUnder(join(dir, '.robotctl')).filter(alive), [], 'nothing runs from the data folder');
  for (const port of Object.values(ports)) t.ok(await portFree(port), `port ${port} is free again`);
  const kept = readFileSync(envFile, 'utf8');
  t.match(kept, /^WEBHOOK_SECRET=/m, 'the secret is kept for the next up');
  t.notMatch(kept, /HF_ENDPOINT|HF_TOKEN/, 'the stopped hub is forgotten');
});

/** A robot's pose (head, antennas, body) changes over time: something drives it. */
async function robotMoves(port: number): Promise<boolean> {
  const pose = async (): Promise<string> => {
    const st = (await (await fetch(`http://127.0.0.1:${port}/api/state/full`)).json()) as Record<string, unknown>;
    return JSON.stringify([st.head_pose, st.antennas_position, st.body_yaw]);
  };
  const first = await pose();
  await until(async () => (await pose()) !== first, 10_000, `the pose of the robot on port ${port} to change`).catch(() => false);
  return (await pose()) !== first;
}

function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runProcess(process.execPath, [bin, ...args], env);
}

function runShell(script: string, env: NodeJS.ProcessEnv): Promise<ProcessResult> {
  return runProcess('bash', ['-c', script], env);
}

t.test('a robot port in use is a clear error naming the robot and the port', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'robotctl-up-busy-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => busy.close(() => resolve())));
  const lab = (busy.address() as { port: number }).port;
  const file = fleetFile(dir, { receiver: await freePort(), desk: await freePort(), lab });
  const res = await runInProcess(['up', '-f', file, '--data', join(dir, 'data'), '--hub-port', '0'], { env: { PATH: process.env.PATH ?? '' } });
  t.equal(res.code, 1);
  t.equal(res.stderr, `Error: robotctl up cannot start ${file}: port ${lab} (robot lab-1) is in use, by another robotctl up or another program. `
    + 'Stop it first, or give this file other ports (the robots\' url, receiver.port) and --hub-port; nothing was started or written.\n');
  t.equal(res.stdout, '', 'nothing started');
  t.notOk(existsSync(join(dir, '.robotctl', 'env')), 'no secret was written');
  t.notOk(existsSync(join(dir, 'data', 'hub-token')), 'no token, no hub data');
});
