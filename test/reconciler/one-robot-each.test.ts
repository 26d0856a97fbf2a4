import t from 'tap';
import { join } from 'node:path';
import { startDaemon } from '../../runtime/daemon/server.js';
import { startHub } from '../../runtime/hub/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { createHubClient } from '../../drivers/hub/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { Config, RobotSpec } from '../../schema/types.js';
import type { RobotAddress } from '../../reconciler/types.js';
import { newState } from '../../state/file.js';
import { observe } from '../../reconciler/observe.js';
import { plan } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { QUIET_BODY, makeApp } from '../helpers/python-apps.js';
import { config, pathApp } from './plan-fixtures.js';
import { fileScratch } from '../helpers/file-scratch.js';

// Issue 29.6: two robots of robot.yaml that are one robot (two URLs validate
// cannot tell apart) switched its app to each one's own on every apply.
// apply now asks each robot its hardware id first: one id twice refuses the
// apply, naming both robots, and nothing is sent. Distinct ids apply as before.

t.test('apply refuses two robots that report one hardware id, and sends nothing', async (t) => {
  const scratch = fileScratch('one-robot-each');
  const one = await startDaemon({ appsDir: join(scratch.dir, 'one'), sim: true, port: 0, hardwareId: 'SAME-0001' });
  const twin = await startDaemon({ appsDir: join(scratch.dir, 'twin'), sim: true, port: 0, hardwareId: 'SAME-0001' });
  const other = await startDaemon({ appsDir: join(scratch.dir, 'other'), sim: true, port: 0, hardwareId: 'OTHER-0002' });
  const hub = await startHub({ users: [] });
  const hubClient = createHubClient({ endpoint: hub.url, token: null });
  const clients = new Map<string, DaemonClient>();
  const daemon = (r: RobotAddress): DaemonClient => {
    const c = clients.get(r.url) ?? createDaemonClient({ baseUrl: r.url });
    clients.set(r.url, c);
    return c;
  };
  t.teardown(async () => {
    for (const c of clients.values()) await c.close();
    await hubClient.close();
    await hub.close();
    await Promise.all([one.close(), twin.close(), other.close()]);
    scratch.remove();
  });
  const quiet = pathApp('quiet_app', makeApp(scratch.dir, 'quiet_app', QUIET_BODY));
  const fleet = (urls: string[]): Config => {
    const c = config({ apps: [quiet], active: null, robots: urls.map((_, i) => ({ name: `r${i}` })) });
    urls.forEach((u, i) => { (c.robots[`r${i}`] as RobotSpec).url = u; });
    return c;
  };
  const run = async (c: Config) => {
    const p = plan(c, await observe(c, { hub: hubClient, daemon }, undefined, { listWebhooks: false }), newState());
    return apply(p, c, { hub: null, daemon, state: newState() }, new AbortController().signal);
  };

  const writes = () => one.stats().writes + twin.stats().writes;
  await t.rejects(run(fleet([one.url, twin.url])), { message: 'robots.r0 and robots.r1 report one hardware id (SAME-0001): they are one robot behind two URLs; keep one of them in robot.yaml (nothing was changed)' });
  t.equal(writes(), 0, 'nothing was sent to either');
  t.same((await daemon({ name: 'one', url: one.url }).listInstalled()).map((a) => a.name), [], 'nothing installed');
  const ok = await run(fleet([one.url, other.url]));
  t.same(ok.report.robots.map((r) => r.status), ['converged', 'converged'], 'two robots with their own ids apply as before');
});
