import t from 'tap';
import type { WriteStream } from 'node:fs';
import { whereLines, type WhereInput } from '../../cli/up/print.js';
import type { LocalRobot } from '../../cli/up/robots.js';
import type { RunningDaemon } from '../../runtime/daemon/server.js';
import { config } from '../reconciler/plan-fixtures.js';

// `up`'s ready block points at `robotctl robots discover` only where its
// simulated robots are discoverable, i.e. their mDNS record went out
// (multicast works on this machine); elsewhere the command would find nothing.

function input(advertised: boolean, robotctl = { command: 'robotctl', onPath: true }): WhereInput {
  const cfg = config({ robots: [{ name: 'desk' }] });
  const daemon: RunningDaemon = { url: 'http://127.0.0.1:8001', close: async () => {}, stats: () => ({ requests: 0, writes: 0 }), advertised: () => advertised, advertise: async () => {} };
  const robots: LocalRobot[] = Object.values(cfg.robots).map((spec) => ({ spec, daemon, log: {} as WriteStream }));
  return {
    config: cfg, cwd: '/work', hubUrl: 'http://127.0.0.1:7870', user: 'demo', tokenFile: '/work/.robotctl/up/hub-token',
    agentUrl: 'http://127.0.0.1:7860', robots, running: { desk: null }, published: [], clone: { dir: '/work/clone', exists: false }, robotctl,
  };
}

t.test('the discover hint shows where the robots are advertised, and only there', async (t) => {
  const shown = whereLines(input(true));
  const at = shown.findIndex((l) => l.includes('robotctl robots discover'));
  t.ok(at > shown.indexOf('  robots (dashboards):'), shown.join('\n'));
  t.equal(shown[at], '  discover    robotctl robots discover   (the simulated robots answer over mDNS on this machine)');
  t.notOk(whereLines(input(false)).some((l) => l.includes('robots discover')), 'no multicast here: no hint');
  const fresh = whereLines(input(true, { command: 'node bin/robotctl.js', onPath: false }));
  t.ok(fresh.includes('  discover    node bin/robotctl.js robots discover   (the simulated robots answer over mDNS on this machine)'),
    'after npm ci alone, the command as it works there');
});
