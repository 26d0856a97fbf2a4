import t from 'tap';
import { join } from 'node:path';
import { CUT_NOTE, lineSplitter, MAX_LINE_BYTES } from '../../lib/python-apps/line-splitter.js';
import { LogRing } from '../../runtime/daemon/apps/log-ring.js';
import { closePair, daemonPair, makeApp, until } from './helpers.js';

// Issue 12.5: an app printing megabytes with no newline cannot exhaust the
// daemon: lines are cut at 8 KiB, the log ring is bounded in bytes,
// current-app-logs is paged, and the status route keeps answering.

const FLOOD_MB = 20;
const FLOOD_BODY = `
def main():
    chunk = "x" * (1024 * 1024)
    for _ in range(${FLOOD_MB}):
        sys.stdout.write(chunk)
    sys.stdout.write("\\nflood done\\n")
    sys.stdout.flush()
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
`;

t.test('splitter: long lines cut once with a note, CRLF and split chunks joined', async (t) => {
  const out: string[] = [];
  const s = lineSplitter((l) => out.push(l));
  s.push(Buffer.from('ab'));
  s.push(Buffer.from('c\r\nde'));
  s.push(Buffer.alloc(MAX_LINE_BYTES * 3, 'y'));
  s.push(Buffer.from('z\nlast'));
  s.end();
  t.same(out.map((l) => l.length), [3, MAX_LINE_BYTES + CUT_NOTE.length, 4]);
  t.equal(out[0], 'abc');
  t.ok(out[1]?.startsWith('dey') && out[1].endsWith(CUT_NOTE));
  t.equal(out[2], 'last');
});

t.test('ring: bounded in bytes and lines, paged by sequence number', async (t) => {
  const ring = new LogRing(100, 10_000);
  for (let i = 0; i < 50; i++) ring.push(`${i}`.padEnd(1000, '.'));
  t.ok(ring.byteSize <= 10_000);
  t.equal(ring.size, 10);
  const last = ring.page({ limit: 3 });
  t.same([last.first, last.next, last.logs.length], [47, 50, 3]);
  const old = ring.page({ since: 0, limit: 5 });
  t.same([old.first, old.dropped, old.logs.length], [40, 40, 5]);
  t.same(ring.page({ since: 50, limit: 5 }).logs, []);
});

t.test(`an app printing ${FLOOD_MB} MB with no newline: bounded memory, quick status, small log answers`, async (t) => {
  const dir = t.testdir();
  const pair = await daemonPair(join(dir, 'apps'), { stopTimeoutMs: 2000 });
  t.teardown(() => closePair(pair));
  await pair.client.install({ name: 'flood_app', source_kind: 'local', description: '', url: null, extra: { path: makeApp(join(dir, 'src'), 'flood_app', FLOOD_BODY) } });
  const url = pair.daemon.url;
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssMax = rssBefore;
  let slowest = 0;
  await pair.client.startApp('flood_app');
  await until(async () => {
    const t0 = Date.now();
    t.equal((await fetch(`${url}/api/daemon/status`)).status, 200);
    slowest = Math.max(slowest, Date.now() - t0);
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
    const page = await (await fetch(`${url}/api/apps/current-app-logs?limit=1000`)).json() as { logs: string[] };
    return page.logs.includes('flood done');
  }, 60_000, 'flood done');
  const res = await fetch(`${url}/api/apps/current-app-logs?limit=1000`);
  const text = await res.text();
  const page = JSON.parse(text) as { logs: string[]; next: number };
  t.ok(text.length < 64 * 1024, `current-app-logs answer is small (${text.length} bytes)`);
  const cut = page.logs.find((l) => l.endsWith(CUT_NOTE));
  t.ok(cut && cut.length === MAX_LINE_BYTES + CUT_NOTE.length, 'the flood is one line cut at 8 KiB');
  // Loose bounds: the machine is shared. Before the fix, 20 MB took the daemon to hundreds of MB and seconds per status.
  t.ok(rssMax - rssBefore < 150 * 1024 * 1024, `RSS grew by ${Math.round((rssMax - rssBefore) / 1048576)} MB`);
  t.ok(slowest < 3000, `slowest status answer ${slowest} ms`);
  t.equal((await fetch(`${url}/api/apps/current-app-logs?limit=5000`)).status, 422, 'limit is capped');
  await pair.client.stopCurrentApp();
});
