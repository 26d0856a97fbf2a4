import t from 'tap';
import { DedupeCache } from '../../runtime/receiver/dedupe-cache.js';

const done = (body: string) => ({ state: 'done' as const, status: 200, body });

t.test('claim: the first sighting is remembered as running, a repeat gets the entry', async (t) => {
  const cache = new DedupeCache(1000, 10, () => 0);
  t.equal(cache.claim('a'), undefined);
  t.same(cache.claim('a'), { state: 'running' });
  cache.set('a', done('1'));
  t.same(cache.claim('a'), done('1'));
});

t.test('expiry drops old keys, but not a key forgotten and seen again since', async (t) => {
  let now = 0;
  const cache = new DedupeCache(100, 10, () => now);
  cache.claim('a');
  cache.delete('a'); // its handler failed
  now = 50;
  cache.claim('a'); // the Hub's retry
  cache.set('a', done('retry'));
  now = 120; // the first sighting's window is over, the retry's is not
  t.same(cache.get('a'), done('retry'));
  now = 151;
  t.equal(cache.get('a'), undefined, 'the retry expires in its turn');
});

t.test('at most maxEntries keys, the oldest dropped first', async (t) => {
  const cache = new DedupeCache(1000, 3, () => 0);
  for (const k of ['a', 'b', 'c', 'd']) cache.claim(k);
  t.equal(cache.get('a'), undefined);
  t.same(['b', 'c', 'd'].map((k) => cache.get(k)?.state), ['running', 'running', 'running']);
});

t.test('window 0 remembers nothing', async (t) => {
  const cache = new DedupeCache(0);
  t.equal(cache.claim('a'), undefined);
  t.equal(cache.claim('a'), undefined);
});
