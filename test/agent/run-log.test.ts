import t from 'tap';
import { RunLog } from '../../reconciler/agent/run-log.js';
import type { Action } from '../../reconciler/types.js';

// Issue 30.1: the agent's log says why an install failed in the robot's words,
// one line per reason, under the failure's own line.

t.test('a failed install logs the robot\'s reason lines under its failure', async (t) => {
  const lines: string[] = [];
  const log = new RunLog((l) => lines.push(l));
  const action = { type: 'remove', address: 'robots.desk.apps.bad', robot: 'desk', app: 'bad', name: 'bad_rt', reason: 'x' } as Action;
  const reason = ["ERROR: Package 'bad-rt' requires a different Python: 3.11.7 not in '>=3.99'", 'ERROR: No matching distribution found for libusb-package>=1.0.26.3'];
  log.onEvent({ type: 'action.failed', unit: 'desk', action, ms: 12, error: `install failed: ${reason.join(' | ')}`, reason });
  t.same(lines, [
    `  failed  remove bad on desk: install failed: ${reason.join(' | ')}`,
    `          ${reason[0]}`,
    `          ${reason[1]}`,
  ]);
  t.match(log.results, [{ address: 'robots.desk.apps.bad', outcome: 'failed', error: /ERROR: Package 'bad-rt'/ }]);
});
