import t from 'tap';
import type { Answer } from 'dns-packet';
import { RobotCollector, sharedNames } from '../../../drivers/discovery/collect.js';
import { announcement, aRecord, fullAnswer, goodbye, ptrRecord, srvRecord, txtRecord, type ServiceRecord } from '../../../runtime/daemon/mdns/records.js';

// Robots assembled from mDNS records whatever their order and packets, kept
// apart by sender and port, with the TXT `address` preferred to the A
// record (every wireless robot is reachy-mini.local), and removed by a
// goodbye. The records are the simulated daemon's own (records.ts), shaped
// as python-zeroconf publishes a ServiceInfo.

function service(label: string, over: Partial<ServiceRecord> = {}): ServiceRecord {
  return {
    label, port: 8000, host: 'reachy-mini.local', address: '192.168.1.20',
    txt: { version: '1.9.0', robot_name: label, ws_path: '/ws/sdk', address: '192.168.1.20', model: 'Reachy Mini Wireless', manufacturer: 'Pollen Robotics', caps: 'camera,mic,speaker,motion,apps', api: 'rest+ws', unit_id: '0123456789abcdef' },
    ...over,
  };
}
const all = (p: { answers: Answer[]; additionals: Answer[] }): Answer[] => [...p.answers, ...p.additionals];

t.test('one answer to a PTR query makes a robot with every TXT field', async (t) => {
  const c = new RobotCollector();
  const got = c.add(all(fullAnswer(service('desk'))), { address: '192.168.1.20' });
  t.same(got.map((r) => r.url), ['http://192.168.1.20:8000']);
  t.match(c.robots()[0], {
    name: 'desk', version: '1.9.0', hardwareId: '0123456789abcdef', model: 'Reachy Mini Wireless', instance: 'desk._reachy-mini._tcp.local',
    host: 'reachy-mini.local', port: 8000, address: '192.168.1.20', addressFrom: 'txt', txt: { ws_path: '/ws/sdk', api: 'rest+ws' },
  });
  t.same(c.incomplete(), []);
});

t.test('records in any order and packet; the address from TXT, else the A record, else the sender', async (t) => {
  const c = new RobotCollector();
  const s = service('lab', { txt: { version: '1.10.0', robot_name: 'lab' } });
  t.same(c.add([ptrRecord(s)], { address: '10.0.0.7' }), [], 'a PTR alone names the instance');
  t.same(c.incomplete(), ['lab._reachy-mini._tcp.local'], 'its SRV and TXT are worth asking for');
  t.same(c.add([srvRecord(s)], { address: '10.0.0.7' }), [], 'no TXT yet');
  const done = c.add([txtRecord(s)], { address: '10.0.0.7' });
  t.match(done, [{ name: 'lab', url: 'http://10.0.0.7:8000', addressFrom: 'sender', hardwareId: null }]);
  const withA = c.add([aRecord({ ...s, address: '10.0.0.8' })], { address: '10.0.0.7' });
  t.match(withA, [{ url: 'http://10.0.0.8:8000', addressFrom: 'a-record' }], 'the host\'s A record, once it comes');
});

t.test('two robots with one name stay two: by sender, and by port on one sender', async (t) => {
  const c = new RobotCollector();
  c.add(all(fullAnswer(service('reachy_mini', { address: '192.168.1.20' }))), { address: '192.168.1.20' });
  const twin = service('reachy_mini', { address: '192.168.1.21' });
  c.add(all(fullAnswer({ ...twin, txt: { ...twin.txt, address: '192.168.1.21', unit_id: 'fedcba9876543210' } })), { address: '192.168.1.21' });
  const local = service('reachy_mini', { port: 8001, address: '127.0.0.1' });
  c.add(all(fullAnswer({ ...local, txt: { robot_name: 'reachy_mini', address: '127.0.0.1' } })), { address: '127.0.0.1' });
  c.add(all(fullAnswer({ ...local, port: 8002, txt: { robot_name: 'reachy_mini', address: '127.0.0.1' } })), { address: '127.0.0.1' });
  t.same(c.robots().map((r) => r.url), ['http://127.0.0.1:8001', 'http://127.0.0.1:8002', 'http://192.168.1.20:8000', 'http://192.168.1.21:8000']);
  t.same([...sharedNames(c.robots())], ['reachy_mini']);
});

t.test('a goodbye removes what it names; a repeated answer changes nothing', async (t) => {
  const c = new RobotCollector();
  const a = service('a', { port: 8001 });
  const b = service('b', { port: 8002 });
  c.add(announcement(a), { address: '192.168.1.20' });
  c.add(announcement(b), { address: '192.168.1.20' });
  t.equal(c.robots().length, 2);
  const before = JSON.stringify(c.robots());
  c.add(announcement(a), { address: '192.168.1.20' });
  t.equal(JSON.stringify(c.robots()), before, 'said again: the same two robots');
  c.add(goodbye(a), { address: '192.168.1.20' });
  t.same(c.robots().map((r) => r.name), ['b']);
  c.add([ptrRecord(b, 0)], { address: '192.168.1.20' });
  t.same(c.robots(), [], 'a PTR goodbye alone removes the instance');
});

t.test('another service type, or a name without robot_name, is handled', async (t) => {
  const c = new RobotCollector();
  t.same(c.add([{ name: '_http._tcp.local', type: 'PTR', ttl: 120, data: 'printer._http._tcp.local' }, { name: 'printer._http._tcp.local', type: 'SRV', ttl: 120, data: { port: 80, target: 'printer.local' } }], { address: '10.0.0.9' }), []);
  const s = service('Reachy de Paul', { txt: { version: '1.8.3' } });
  t.match(c.add(all(fullAnswer(s)), { address: '10.0.0.10' }), [{ name: 'Reachy de Paul', version: '1.8.3', model: null }], 'the instance label when TXT has no robot_name');
});
