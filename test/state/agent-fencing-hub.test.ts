import t from 'tap';
import { createHubClient } from '../../drivers/hub/client.js';
import { hubStore } from '../../state/hub-store.js';
import { fencingScenario, USER } from './fencing-case.js';

// Issue 29.2 on the hub backend: a leader agent frozen (SIGSTOP) past its
// 3 s lease while its run waited for the state lock, the standby taking over
// and converging the next change, sends nothing once it resumes (SIGCONT): no
// webhook write, no state or lock commit, no robot write; the state's serial
// does not move. Before the fence, right after "lost leadership" it took the
// state lock, applied its pre-freeze robot.yaml and committed a state serial.

const REPO = 'demo/fencing-state';

t.test('a paused leader on the hub backend writes nothing after it resumes', async (t) => {
  const serial = async (hubUrl: string): Promise<number> => {
    const client = createHubClient({ endpoint: hubUrl, token: USER.token });
    try {
      return (JSON.parse((await client.downloadFile('dataset', REPO, 'state.json')).toString('utf8')) as { serial: number }).serial;
    } finally {
      await client.close();
    }
  };
  const holdStateLock = async (hubUrl: string) => {
    const client = createHubClient({ endpoint: hubUrl, token: USER.token });
    const lock = await hubStore({ hub: client, repo: REPO, leaseMs: 3000 }).lock({ timeoutMs: 30_000, operation: 'test' });
    return { release: async () => { await lock.release(); await client.close(); } };
  };
  const out = await fencingScenario(t, { block: `{ backend: hub, repo: ${REPO}, lease: 3s }`, serial, holdStateLock });
  t.ok(out.tookOverWhileFrozen, 'the standby took over and converged while the leader was frozen');
  t.same(out.hubWrites, [], 'no hub write from the old leader after SIGCONT (webhooks, state, locks)', out.hubWrites.length > 0 ? out.diagnosis : {});
  t.same(out.robotWrites, [], 'no robot write from the old leader after SIGCONT', out.robotWrites.length > 0 ? out.diagnosis : {});
  t.equal(out.serialAfter, out.serialBefore, 'no state serial from the old leader');
  t.equal(out.webhooks, 3, 'the hub holds what the new leader made: one webhook per name');
  t.equal(out.running, 'one_app', 'the robot runs what the new leader started');
});
