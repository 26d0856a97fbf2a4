import t from 'tap';
import { compareReleases, newestRelease, parseRelease, releaseNumber, sameRelease, type Release } from '../../lib/release-version.js';

// Daemon versions read and ordered as the real daemon orders them
// (update_available.py: semver, PEP 440 pre-release and dev markers as a
// semver pre-release), and compared as release numbers.

const r = (v: string): Release => {
  const parsed = parseRelease(v);
  if (!parsed) throw new Error(`${v} should parse`);
  return parsed;
};

t.test('semver, PEP 440 markers, git tags and local labels parse', async (t) => {
  t.same(parseRelease('1.10.0'), { major: 1, minor: 10, patch: 0, pre: [] });
  t.same(parseRelease('v1.10.0'), { major: 1, minor: 10, patch: 0, pre: [] }, "the repository's tags");
  t.same(parseRelease('1.10.0.dev0'), { major: 1, minor: 10, patch: 0, pre: ['dev', 0] }, 'what main reports');
  t.same(parseRelease('1.10.0rc1'), { major: 1, minor: 10, patch: 0, pre: ['rc', 1] });
  t.same(parseRelease('1.10.0-robotctl-sim'), { major: 1, minor: 10, patch: 0, pre: ['robotctl-sim'] });
  t.same(parseRelease('1.10.0+robotctl.standin'), { major: 1, minor: 10, patch: 0, pre: [] }, 'a local label is not an order');
  for (const bad of ['main', '1.10', 'latest', '', 'v', '1.10.0.post1', '01.2.3']) t.equal(parseRelease(bad), null, bad);
});

t.test('order: pre-releases and dev builds before their release, numbers as numbers', async (t) => {
  const sorted = ['1.8.3', '1.9.0rc1', '1.9.0', '1.10.0.dev0', '1.10.0rc1', '1.10.0rc5', '1.10.0', '1.10.1', '2.0.0'];
  const shuffled = [...sorted].reverse();
  t.same(shuffled.sort((a, b) => compareReleases(r(a), r(b))), sorted);
  t.ok(compareReleases(r('1.10.0'), r('1.9.9')) > 0, '10 > 9, not as text');
  t.equal(compareReleases(r('v1.10.0'), r('1.10.0+x')), 0);
  t.equal(newestRelease(['1.9.0', 'main', '1.10.0rc2', '1.8.3']), '1.10.0rc2');
  t.equal(newestRelease(['main']), null);
});

t.test('release numbers: a dev or simulator build counts as its release', async (t) => {
  t.equal(releaseNumber('1.10.0.dev0'), '1.10.0');
  t.equal(releaseNumber('v1.10.0'), '1.10.0');
  t.equal(releaseNumber('main'), null);
  t.ok(sameRelease('1.10.0.dev0', '1.10.0'));
  t.ok(sameRelease('1.10.0-robotctl-sim', 'v1.10.0'));
  t.notOk(sameRelease('1.10.0', '1.10.1'));
  t.notOk(sameRelease('main', 'main'), 'names that are not versions never match');
});
