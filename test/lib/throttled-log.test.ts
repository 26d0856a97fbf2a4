import t from 'tap';
import { throttledLog } from '../../lib/throttled-log.js';

const wording = { withCount: (l: string, n: number) => `${l} (+${n})`, summary: (n: number) => `${n} not logged` };

t.test('one line per interval; the dropped ones ride on the next line or on flush', async (t) => {
  const out: string[] = [];
  let now = 0;
  const log = throttledLog((l) => out.push(l), 1000, wording, () => now);
  log('a');
  log('b');
  log('c');
  now = 999;
  log('d');
  t.same(out, ['a'], 'within the second: only the first');
  now = 1000;
  log('e');
  t.same(out, ['a', 'e (+3)'], 'the next line carries the count');
  log('f');
  log.flush();
  log.flush();
  t.same(out, ['a', 'e (+3)', '1 not logged'], 'flush says what was left, once');
  now = 5000;
  log('g');
  t.same(out.at(-1), 'g', 'a quiet period starts afresh');
});
