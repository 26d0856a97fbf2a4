import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { launch, type Launched } from '../../runtime/daemon/apps/launcher.js';
import { procInfo } from '../../runtime/daemon/apps/proc.js';

// The helper process that spawns apps for the daemon: its children are what
// a spawn from the daemon made (own process group, piped output, exit code),
// with the output relayed whole and in order, and 'close' after it.

function collect(l: Launched): { out: () => string; err: () => string; done: Promise<{ code: number | null; signal: string | null }> } {
  let out = '';
  let err = '';
  l.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  l.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const done = l.closed.then(async () => {
    const e = await l.exit;
    return { code: e.code, signal: e.signal };
  });
  return { out: () => out, err: () => err, done };
}

t.test('a launched process: own group, its environment and folder, output and exit code', async (t) => {
  const dir = t.testdir();
  const l = await launch('sh', ['-c', 'echo "out $PWD $ONLY_HERE"; echo err >&2; exit 3'], { cwd: dir, env: { PATH: process.env.PATH, ONLY_HERE: 'yes' } });
  t.ok(l.pid && l.pid > 0);
  const pgid = l.pid ? procInfo(l.pid)?.pgid : undefined;
  const c = collect(l);
  const end = await c.done;
  if (pgid !== undefined) t.equal(pgid, l.pid, 'the leader of its own process group');
  t.same(end, { code: 3, signal: null });
  t.equal(c.out(), `out ${dir} yes\n`, 'all of its output, read before close');
  t.equal(c.err(), 'err\n');
});

t.test('output larger than the relay lets through at once arrives whole and in order', async (t) => {
  const l = await launch('sh', ['-c', 'i=0; while [ $i -lt 20000 ]; do echo "line $i of the output"; i=$((i+1)); done'], { cwd: t.testdir(), env: { PATH: process.env.PATH } });
  const c = collect(l);
  t.same(await c.done, { code: 0, signal: null });
  const lines = c.out().trimEnd().split('\n');
  t.equal(lines.length, 20000);
  t.ok(lines.every((x, i) => x === `line ${i} of the output`), 'in order, none lost');
});

t.test('a signal goes to the process; a command that cannot start is an error', async (t) => {
  const l = await launch('sleep', ['30'], { cwd: t.testdir(), env: { PATH: process.env.PATH } });
  const c = collect(l);
  l.kill('SIGINT');
  t.same(await c.done, { code: null, signal: 'SIGINT' });
  const bad = await launch('/nonexistent/robotctl-python', [], { cwd: t.testdir(), env: {} });
  t.match((await bad.exit).error?.message, /ENOENT/);
});

/** The launcher's helper: this process's child running the helper's script. */
function helperPid(): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${name}/cmdline`, 'latin1').includes('kids.set')) return Number(name);
    } catch { /* gone meanwhile */ }
  }
  return undefined;
}

t.test('a launch the helper died before answering is run by a new helper (a Ctrl-C can kill one as it starts)', async (t) => {
  await (await launch('true', [], { cwd: t.testdir(), env: { PATH: process.env.PATH } })).exit;
  const old = helperPid();
  if (old === undefined) return t.fail('the helper runs');
  // Stopped, it cannot read the launch; killed, it never answers it.
  process.kill(old, 'SIGSTOP');
  const pending = launch('sh', ['-c', 'echo again'], { cwd: t.testdir(), env: { PATH: process.env.PATH } });
  process.kill(old, 'SIGKILL');
  const l = await pending;
  const c = collect(l);
  t.same(await c.done, { code: 0, signal: null }, 'it ran');
  t.equal(c.out(), 'again\n');
  t.not(helperPid(), old, 'through a new helper');
});
