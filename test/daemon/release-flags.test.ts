import t from 'tap';
import { releaseFlags } from '../../cli/commands/daemon/release-flags.js';
import { runInProcess } from '../helpers/cli.js';

// `robotctl daemon --sim`'s version flags, checked before any robot starts.

t.test('versions, lists and the hardware id are read, with the tag\'s v dropped', async (t) => {
  t.same(releaseFlags({}, 1), { release: {} });
  t.same(releaseFlags({ daemonVersion: 'v1.9.0', releases: '1.8.3, v1.9.0,1.10.0', crashloopReleases: '1.10.0' }, 3),
    { release: { version: '1.9.0', releases: ['1.8.3', '1.9.0', '1.10.0'], crashloop: ['1.10.0'] } });
  t.same(releaseFlags({ hardwareId: 'none' }, 1), { release: {}, hardwareId: null });
  t.same(releaseFlags({ hardwareId: 'a1b2c3' }, 1), { release: {}, hardwareId: 'a1b2c3' });
});

t.test('bad values are usage errors that say what is expected', async (t) => {
  t.throws(() => releaseFlags({ daemonVersion: 'latest' }, 1), { name: 'UsageError', message: "--daemon-version: 'latest' is not a version (e.g. 1.9.0)" });
  t.throws(() => releaseFlags({ releases: '1.9.0,main' }, 1), { message: "--releases: 'main' is not a version (e.g. 1.10.0, v1.10.0 or 1.10.0rc1)" });
  t.throws(() => releaseFlags({ crashloopReleases: ' , ' }, 1), { message: /--crashloop-releases: expected versions separated by commas/ });
  t.throws(() => releaseFlags({ hardwareId: 'x' }, 3), { message: /--hardware-id names one robot/ });
  t.throws(() => releaseFlags({ hardwareId: 'a b' }, 1), { message: /--hardware-id: expected letters, digits/ });
  const r = await runInProcess(['daemon', '--sim', '--port', '0', '--releases', '1.x']);
  t.equal(r.code, 64);
  t.match(r.stderr, /--releases: '1\.x' is not a version/);
});
