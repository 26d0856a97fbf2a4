import t from 'tap';
import { keyOf, robotKeys } from '../../cli/commands/robots/robot-keys.js';
import { robotsYaml } from '../../cli/views/discover-view.js';
import { parse } from 'yaml';
import type { DiscoveredRobot } from '../../drivers/discovery/types.js';

// robot.yaml keys for discovered robots: valid names, and robots that share a
// name told apart by their hardware id (else their address); the YAML block
// reads back as the same robots.

function robot(name: string, hardwareId: string | null, address = '192.168.1.20', port = 8000): DiscoveredRobot {
  return { name, url: `http://${address}:${port}`, version: '1.10.0', hardwareId, model: 'Reachy Mini Wireless', instance: `${name}._reachy-mini._tcp.local`, host: 'reachy-mini.local', port, address, addressFrom: 'txt', txt: {} };
}

t.test('names become valid keys', async (t) => {
  t.equal(keyOf('desk'), 'desk');
  t.equal(keyOf('reachy_mini-0'), 'reachy_mini-0');
  t.equal(keyOf('Reachy de Paul'), 'Reachy-de-Paul');
  t.equal(keyOf('2nd bot'), 'robot-2nd-bot');
  t.equal(keyOf('日本'), 'robot', 'nothing usable left');
  t.equal(keyOf('x'.repeat(80)).length, 64);
  for (const name of ['Reachy de Paul', '2nd bot', '日本', 'été', '-x-', 'a.b']) t.match(keyOf(name), /^[A-Za-z_][A-Za-z0-9_-]*$/, name);
});

t.test('robots sharing a name get the shortest telling prefix of their hardware id, else their address', async (t) => {
  const keyed = robotKeys([
    robot('reachy_mini', 'abcd1111aaaaaaaa', '192.168.1.20'),
    robot('reachy_mini', 'abcd2222bbbbbbbb', '192.168.1.21'),
    robot('reachy_mini', null, '192.168.1.22'),
    robot('desk', 'ffff000011112222', '192.168.1.30'),
    robot('Reachy de Paul', null, '192.168.1.31'),
  ]);
  t.same(keyed.map((k) => k.key), ['reachy_mini-abcd1', 'reachy_mini-abcd2', 'reachy_mini-192-168-1-22-8000', 'desk', 'Reachy-de-Paul']);
  t.same(keyed.map((k) => k.sharedName), [true, true, true, false, false]);
  t.match(keyed[0]?.note, /answers as 'reachy_mini', like 2 other robots/);
  t.match(keyed[2]?.note, /no hardware id advertised/);
  t.equal(keyed[3]?.note, null);
  t.match(keyed[4]?.note, /answers as 'Reachy de Paul'/);
  const back = parse(robotsYaml(keyed)) as { robots: Record<string, { url: string; hardware_id?: string }> };
  t.same(back.robots['reachy_mini-abcd1'], { url: 'http://192.168.1.20:8000', hardware_id: 'abcd1111aaaaaaaa' });
  t.same(back.robots['Reachy-de-Paul'], { url: 'http://192.168.1.31:8000' }, 'no hardware_id when the robot gave none');
  t.same(Object.keys(back.robots), keyed.map((k) => k.key), 'in the listed order');
});

t.test('a hardware id that reads as a number stays a string in YAML', async (t) => {
  const text = robotsYaml(robotKeys([robot('a', '1234567890123456'), robot('b', '12e4567890123456', '192.168.1.21')]));
  const back = parse(text) as { robots: Record<string, { hardware_id: unknown }> };
  t.equal(back.robots.a?.hardware_id, '1234567890123456');
  t.equal(back.robots.b?.hardware_id, '12e4567890123456');
});
