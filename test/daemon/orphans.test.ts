import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { runCommand } from '../../lib/python-apps/run.js';
import { bin } from '../helpers/cli.js';
import { alive, closePair, daemonPair, makeApp, until } from './helpers.js';

// Issue 12.3: no app outlives its daemon, a restarted daemon stops what a
// killed one left, so two apps never run, and a child an app starts in a new
// session dies with the app. (`npm run build` first: the daemon runs from dist/.)

/** Runs until SIGINT; its child leaves the app's group and session at once. */
const SESSION_BODY = `
import subprocess
def main():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    print(f"pids {os.getpid()} {child.pid}", flush=True)
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
`;

/** Live (non-zombie) processes whose command line contains needle. */
function processesRunning(needle: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(needle) && alive(Number(d))) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}

function pidsOf(m: RegExpExecArray | null | undefined): [number, number] {
  if (!m) throw new Error('no pids line');
  return [Number(m[1]), Number(m[2])];
}

interface CliDaemon { child: ChildProcess; url: string; stderr: () => string; exited: Promise<number | null> }

async function cliDaemon(t: Test, appsDir: string): Promise<CliDaemon> {
  const child = spawn(process.execPath, [bin, 'daemon', '--sim', '--port', '0', '--apps-dir', appsDir, '--stop-timeout', '2'], {
    env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { child, url: first.replace('listening on ', ''), stderr: () => err, exited };
}

t.test('kill -9 of the daemon while an app runs: the next daemon stops it first, one app process only', async (t) => {
  const dir = t.testdir();
  const appsDir = join(dir, 'apps');
  const path = makeApp(join(dir, 'src'), 'orphan_app', SESSION_BODY);
  const appProcess = `${appsDir}/venv/bin/python -u -m orphan_app.main`;
  // Even if an assertion fails, leave nothing behind.
  t.teardown(() => { for (const p of [...processesRunning(appProcess), ...processesRunning(appsDir)]) process.kill(p, 'SIGKILL'); });
  const first = await cliDaemon(t, appsDir);
  const c1 = createDaemonClient({ baseUrl: first.url, jobTimeoutMs: 120_000 });
  await c1.install({ name: 'orphan_app', source_kind: 'local', description: '', url: null, extra: { path } });
  await c1.startApp('orphan_app');
  const [app, sessionChild] = pidsOf(await until(() => /pids (\d+) (\d+)/.exec(first.stderr()), 10_000, 'app pids'));
  await c1.close();
  first.child.kill('SIGKILL');
  await first.exited;
  t.ok(alive(app) && alive(sessionChild), 'the killed daemon could not stop its app');

  const second = await cliDaemon(t, appsDir);
  t.notOk(alive(app), 'the previous app is gone before the new daemon listens');
  t.notOk(alive(sessionChild), 'and so is its child in another session');
  t.match(second.stderr(), /Stopped app 'orphan_app' \(pid \d+\) left running by a previous daemon/);
  const c2 = createDaemonClient({ baseUrl: second.url, jobTimeoutMs: 120_000 });
  t.teardown(() => c2.close());
  t.equal(await c2.currentAppStatus(), null);
  await c2.startApp('orphan_app');
  await until(() => /pids (\d+) (\d+)/.exec(second.stderr()), 10_000, 'second app pids');
  t.equal(processesRunning(appProcess).length, 1, 'exactly one app process');
  second.child.kill('SIGTERM');
  t.equal(await second.exited, 0);
  t.same(processesRunning(appProcess), [], 'nothing left after the daemon exits');
  t.same(processesRunning(appsDir), [], 'no process of this apps folder left');
});

t.test('stop kills a child the app started in a new session', async (t) => {
  const dir = t.testdir();
  const logs: string[] = [];
  const pair = await daemonPair(join(dir, 'apps'), { stopTimeoutMs: 2000, log: (l) => logs.push(l) });
  t.teardown(() => closePair(pair));
  const path = makeApp(join(dir, 'src'), 'session_app', SESSION_BODY);
  await pair.client.install({ name: 'session_app', source_kind: 'local', description: '', url: null, extra: { path } });
  await pair.client.startApp('session_app');
  const [app, child] = pidsOf(await until(() => logs.map((l) => /^pids (\d+) (\d+)$/.exec(l)).find(Boolean), 10_000, 'pids'));
  t.ok(alive(child));
  await pair.client.stopCurrentApp();
  t.notOk(alive(app), 'app gone');
  await until(() => !alive(child), 2000, 'session child gone');
  t.notOk(alive(child), 'the new-session child is gone too');
});

t.test('an aborted command (pip at daemon exit) dies with everything it started', async (t) => {
  const ac = new AbortController();
  const pids: number[] = [];
  const run = runCommand('sh', ['-c', 'sleep 600 & echo $!; wait'], { signal: ac.signal, onLine: (l) => { pids.push(Number(l)); ac.abort(); } });
  await t.rejects(run, /killed by SIGKILL/);
  t.equal(pids.length, 1);
  await until(() => !alive(pids[0] as number), 2000, 'grandchild gone');
  t.notOk(alive(pids[0] as number));
});
