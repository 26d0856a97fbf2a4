import t from 'tap';
import { killMatrix } from './kill-apps.js';

// The kill -9 matrix for apps (issue 29.4) on a hub dataset state, whose
// records are written in one-second batches: see kill-apps.ts.

t.test('kill -9 at every moment of app installs and removals, hub state: 0 orphans, 0 duplicates', async (t) => {
  const m = await killMatrix(t, '{ backend: hub, repo: alice/kill-apps-state }');
  t.equal(m.rounds, 4, m.log.join('\n'));
  t.same(m.orphans, [], '0 orphans');
  t.same(m.duplicates, [], '0 duplicates');
});
