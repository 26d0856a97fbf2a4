import t from 'tap';
import { plan } from '../../reconciler/plan.js';
import { app, config, installedOf, observation, pathApp, robotObs, state } from '../reconciler/plan-fixtures.js';

// PlanOptions.forceUpdate: the agent's watcher saw a path app's files change;
// the planner reinstalls it where installed and restarts it where active.

const dev = pathApp('dev_app');
const hello = app('hello_app');
const desired = config({ apps: [dev, hello], active: 'dev_app', robots: [{ name: 'desk' }, { name: 'lab', active: 'hello_app' }] });
const running = (spec: typeof dev) => ({ app: installedOf(spec), state: 'running' as const });
const observed = observation({
  robots: {
    desk: robotObs([installedOf(dev), installedOf(hello)], running(dev)),
    lab: robotObs([installedOf(dev), installedOf(hello)], running(hello)),
  },
});
const addresses = (p: ReturnType<typeof plan>) => p.actions.map((a) => `${a.type} ${a.address}`);

t.test('without forceUpdate a converged fleet has nothing to do', async (t) => {
  t.same(plan(desired, observed, state()).actions, []);
});

t.test('forced: reinstall everywhere, stop and start where it runs', async (t) => {
  const p = plan(desired, observed, state(), { forceUpdate: ['dev_app'] });
  t.same(addresses(p), [
    'stop robots.desk.apps.dev_app', 'update_app robots.desk.apps.dev_app', 'start robots.desk.apps.dev_app',
    'update_app robots.lab.apps.dev_app',
  ]);
  t.match(p.actions[1], { cause: 'source', reason: /files changed/, info: { source_kind: 'local', extra: { path: dev.path } } });
});

t.test('forced with targets stays on the targeted robots', async (t) => {
  const p = plan(desired, observed, state(), { forceUpdate: ['dev_app'], targets: ['robots.lab'] });
  t.same(addresses(p), ['update_app robots.lab.apps.dev_app']);
});

t.test('a forced app that is not installed is simply installed', async (t) => {
  const fresh = observation({ robots: { desk: robotObs([installedOf(hello)], null), lab: robotObs([installedOf(dev), installedOf(hello)], running(hello)) } });
  const p = plan(desired, fresh, state(), { forceUpdate: ['dev_app'], targets: ['robots.desk'] });
  t.same(addresses(p), ['install robots.desk.apps.dev_app', 'start robots.desk.apps.dev_app']);
});
