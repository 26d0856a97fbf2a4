import t from 'tap';
import { postgresMissing, startPostgres } from '../helpers/postgres.js';
import { killMatrix } from './kill-apps.js';

// The kill -9 matrix for apps (issue 29.4) on a PostgreSQL state, whose
// records are written in one-second batches: see kill-apps.ts. (The issue's
// reproduction: a kill in the batch window lost `or2_app`'s install record.)

t.test('kill -9 at every moment of app installs and removals, postgres state: 0 orphans, 0 duplicates', { skip: postgresMissing() ?? false }, async (t) => {
  const db = await startPostgres();
  t.teardown(() => db.stop());
  const m = await killMatrix(t, `{ backend: postgres, url: "${db.url}", key: kill-apps }`);
  t.equal(m.rounds, 4, m.log.join('\n'));
  t.same(m.orphans, [], '0 orphans');
  t.same(m.duplicates, [], '0 duplicates');
});
