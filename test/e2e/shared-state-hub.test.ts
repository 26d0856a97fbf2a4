import t from 'tap';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { until } from '../helpers/wait.js';
import { SECRET, USER } from './helpers.js';
import { twoApplies } from './shared-state.js';

// Concurrent applies of one robot.yaml whose state is a dataset on the
// embedded hub (test/e2e/shared-state.ts). Then the dataset's history shows
// the lock passed from one apply to the other and every state write was made
// under a lease; the stored state holds no secret.

let hub: RunningHub;
t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(() => hub.close());

const REPO = `${USER.name}/shared-e2e-state`;

interface Commit { title: string }

async function history(): Promise<string[]> {
  const res = await fetch(`${hub.url}/api/datasets/${REPO}/commits/main`, { headers: { authorization: `Bearer ${USER.token}` } });
  return ((await res.json()) as Commit[]).map((c) => c.title).reverse();
}

/** Replays the lock commits: who held the lease at each state write; fails on an overlap. */
function replay(titles: string[]): { holders: number[]; writes: number; overlaps: string[] } {
  let holder: number | null = null;
  const holders: number[] = [];
  const overlaps: string[] = [];
  let writes = 0;
  for (const title of titles) {
    const lock = /^robotctl: lock \(apply, pid (\d+) on /.exec(title);
    const renew = /^robotctl: renew lock \(pid (\d+) on /.exec(title);
    const unlock = /^robotctl: unlock \(pid (\d+) on /.exec(title);
    if (lock) {
      if (holder !== null) overlaps.push(`${title} while pid ${holder} held it`);
      holder = Number(lock[1]);
      holders.push(holder);
    } else if (renew && Number(renew[1]) !== holder) overlaps.push(`${title} while pid ${holder} held it`);
    else if (unlock) {
      if (Number(unlock[1]) !== holder) overlaps.push(`${title} while pid ${holder} held it`);
      holder = null;
    } else if (/^robotctl: state serial \d+$/.test(title)) {
      if (holder === null) overlaps.push(`${title} without a lease`);
      writes += 1;
    }
  }
  return { holders, writes, overlaps };
}

t.test('hub backend: two applies of one robot.yaml, one fails fast naming the holder, one waits; no duplicate', async (t) => {
  const run = await twoApplies(t, {
    hubUrl: hub.url, stateBlock: `{ backend: hub, repo: ${REPO} }`, spec: `hub:${REPO}`, tag: 'shared-hub', hooks: 20,
    // Its lock attempt reads the lease the first apply holds.
    waitingForLock: async (_pid, seen) => { await until(() => seen().some((r) => (r.url ?? '').includes('state.json.lock')), 30_000, 'the waiting apply reads the lease'); },
  });
  const { holders, writes, overlaps } = replay(await history());
  t.same(overlaps, [], 'never two holders at once, no state write without the lease');
  t.same(holders, [run.first.proc.pid, run.waiter.proc.pid], 'the lock went from the first apply to the waiting one');
  t.ok(writes >= 1, `the state was written under the lease (${writes} commits)`);
  const stored = await fetch(`${hub.url}/datasets/${REPO}/resolve/main/state.json`, { headers: { authorization: `Bearer ${USER.token}` } });
  const text = await stored.text();
  t.equal(Object.keys((JSON.parse(text) as { webhooks: object }).webhooks).length, 20, 'the shared state owns every webhook');
  t.notOk(text.includes(SECRET), 'no secret in the dataset');
});
