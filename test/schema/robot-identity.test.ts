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
