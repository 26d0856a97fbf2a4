import t from 'tap';
import { loadConfigText } from '../../schema/load.js';

// robots.NAME.hardware_id and robot_name (issue 31): loaded and checked now,
// acted on later. A `robots discover --yaml` block is valid as it is.

const load = (robot: string) => loadConfigText(`version: 1\nrobots:\n  desk: ${robot}\n`, 'robot.yaml', '/tmp', {});

t.test('both are optional; a null hardware_id is kept apart from none', async (t) => {
  const plain = load('{ url: http://127.0.0.1:8000 }');
  t.ok(plain.ok);
  if (plain.ok) t.same([plain.config.robots.desk?.hardwareId, plain.config.robots.desk?.robotName], [undefined, undefined]);
  const set = load('{ url: http://127.0.0.1:8000, hardware_id: "1234567890123456", robot_name: Desk one }');
  t.ok(set.ok);
  if (set.ok) t.match(set.config.robots.desk, { hardwareId: '1234567890123456', robotName: 'Desk one' });
  const none = load('{ url: http://127.0.0.1:8000, hardware_id: null }');
  t.ok(none.ok);
  if (none.ok) t.equal(none.config.robots.desk?.hardwareId, null);
});

t.test('bad values are named with their line and field', async (t) => {
  const cases: [string, RegExp][] = [
    ['{ url: http://127.0.0.1:8000, hardware_id: 1234 }', /robots\.desk\.hardware_id/],
    ['{ url: http://127.0.0.1:8000, hardware_id: "" }', /robots\.desk\.hardware_id/],
    ['{ url: http://127.0.0.1:8000, robot_name: "   " }', /robots\.desk\.robot_name: must not be blank/],
    [`{ url: http://127.0.0.1:8000, robot_name: ${'x'.repeat(65)} }`, /robots\.desk\.robot_name/],
  ];
  for (const [robot, message] of cases) {
    const r = load(robot);
    t.notOk(r.ok, robot);
    t.match(r.diagnostics.map((d) => `${d.line}: ${d.path}: ${d.message}`).join('\n'), message, robot);
    t.equal(r.diagnostics[0]?.line, 3, 'on the robot\'s line');
  }
});

t.test('a robot without url is found by its hardware_id; with neither (or a null id) it is an error', async (t) => {
  const found = load('{ hardware_id: "1234567890123456" }');
  t.ok(found.ok);
  if (found.ok) t.match(found.config.robots.desk, { url: null, hardwareId: '1234567890123456' });
  const neither = load('{ robot_name: desk }');
  t.same(neither.diagnostics.map((d) => `${d.line}:${d.column}: ${d.path}: ${d.message}`), [
    '3:3: robots.desk: set url, or hardware_id to find the robot over mDNS (`robotctl robots discover --yaml` writes both)',
  ]);
  const nullId = load('{ hardware_id: null }');
  t.match(nullId.diagnostics.map((d) => `${d.line}: ${d.path}: ${d.message}`).join('\n'), /^3: robots\.desk\.hardware_id: null finds no robot over mDNS: set url/);
});

const loadDoc = (text: string) => loadConfigText(`version: 1\n${text}`, 'robot.yaml', '/tmp', {});

t.test('daemon: a fleet version, a robot override, latest, update_timeout (default 10 minutes)', async (t) => {
  const r = loadDoc('daemon: { version: 1.10.0, update_timeout: 90s }\nrobots:\n  a: { url: http://127.0.0.1:8001 }\n  b: { url: http://127.0.0.1:8002, daemon: { version: latest } }\n');
  t.ok(r.ok, JSON.stringify(r.diagnostics));
  if (!r.ok) return;
  t.same(r.config.daemon, { version: '1.10.0', updateTimeoutMs: 90_000 });
  t.equal(r.config.robots.a?.daemonVersion, '1.10.0');
  t.equal(r.config.robots.b?.daemonVersion, 'latest');
  const plain = loadDoc('robots:\n  a: { url: http://127.0.0.1:8001 }\n');
  t.ok(plain.ok);
  if (plain.ok) {
    t.same(plain.config.daemon, { version: null, updateTimeoutMs: 600_000 });
    t.notOk('daemonVersion' in (plain.config.robots.a ?? {}), 'no version declared: the daemon is not managed');
  }
  t.ok(loadDoc('daemon: { version: "1.10.0.dev0" }\n').ok, 'a dev build names a release');
  t.ok(loadDoc('daemon: { version: 1.11.0rc1 }\n').ok, 'so does a release candidate');
});

t.test('daemon mistakes are named with file, line and field', async (t) => {
  const cases: [string, string][] = [
    ['daemon: { version: 1.10 }\n', '2:20: daemon.version: YAML read 1.1 as a number: write the release in quotes, e.g. "1.10.0"'],
    ['daemon: { version: newest }\n', "2:20: daemon.version: 'newest' is not a release: write it as the daemon's releases are numbered (e.g. 1.10.0, 1.10.0rc1), or latest"],
    ['daemon: { update_timeout: soon }\n', '2:27: daemon.update_timeout: must be a duration such as 10m, 90s or 500ms'],
    ['daemon: { update_timeout: 0 }\n', '2:27: daemon.update_timeout: must be longer than 0: an update needs time to restart the daemon'],
    ['daemon: { versoin: 1.10.0 }\n', "2:11: daemon.versoin: unknown key 'versoin'"],
    ['robots:\n  a: { url: http://127.0.0.1:8001, daemon: { version: "1.x" } }\n', "3:55: robots.a.daemon.version: '1.x' is not a release"],
  ];
  for (const [text, expected] of cases) {
    const r = loadDoc(text);
    t.notOk(r.ok, text);
    t.match(r.diagnostics.map((d) => `${d.line}:${d.column}: ${d.path}: ${d.message}`).join('\n'), expected, text);
  }
});
