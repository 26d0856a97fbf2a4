import t, { type Test } from 'tap';
import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bin, repoRoot, runCli, type CliResult } from '../helpers/cli.js';
import { spawnCli, type Child } from './helpers.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { inNamespace } from '../helpers/netns.js';
import { until } from '../helpers/wait.js';

// Run inside a private network namespace by robots-discover.test.ts:
// discovery of `robotctl daemon --sim --robots 3` over real multicast, its
// `--yaml` block as a valid robot.yaml, a rename and an update re-advertised,
// hardware ids kept across a restart, python-zeroconf (the real daemon's mDNS
// library) on both sides, and what happens without mDNS or multicast.

if (!inNamespace()) throw new Error('robots-discover-cases.ts runs only inside the namespace robots-discover.test.ts makes');

interface Found {
  format_version: string;
  robots: { name: string; url: string; version: string | null; hardware_id: string | null; model: string | null; shared_name: boolean; yaml_key: string; txt: Record<string, string> }[];
}

const dir = t.testdir();
const appsDir = join(dir, 'apps');
const env = { HOME: dir };

function discover(...args: string[]): Promise<CliResult> {
  return runCli(['robots', 'discover', '--timeout', '1s', ...args], { env, timeoutMs: 30_000 });
}

async function found(...args: string[]): Promise<Found> {
  const r = await discover('--json', ...args);
  if (r.code !== 0) throw new Error(`discover --json exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Found;
}

async function fleet(args: string[], count: number): Promise<{ child: Child; urls: string[] }> {
  const child = spawnCli(['daemon', '--sim', '--port', '0', ...args], { env, cwd: repoRoot });
  t.teardown(() => { if (child.proc.exitCode === null) child.proc.kill('SIGKILL'); });
  await child.waitFor(/listening on /, count, 60_000);
  return { child, urls: [...child.stdout().matchAll(/^listening on (\S+)/gm)].map((m) => m[1] as string) };
}

async function stop(child: Child): Promise<void> {
  child.proc.kill('SIGTERM');
  await child.exited;
}

async function validYaml(t: Test, yaml: string): Promise<void> {
  const file = join(dir, 'robot.yaml');
  writeFileSync(file, `version: 1\n${yaml}`);
  const v = await runCli(['validate', '-f', file], { env });
  t.equal(v.code, 0, `robotctl validate: ${v.stdout}${v.stderr}\n${yaml}`);
}

let first: { child: Child; urls: string[] };
const ids: string[] = [];

t.before(async () => {
  first = await fleet(['--robots', '3', '--apps-dir', appsDir], 3);
});

t.test('three robots answer: name, URL, daemon version, hardware id, model', async (t) => {
  const doc = await found();
  t.equal(doc.format_version, '1.0');
  t.same(doc.robots.map((r) => r.name), ['reachy_mini-0', 'reachy_mini-1', 'reachy_mini-2']);
  t.same(doc.robots.map((r) => r.url), first.urls, 'the URLs the daemon listens on, from the TXT address and the service port');
  for (const r of doc.robots) {
    const c = createDaemonClient({ baseUrl: r.url });
    t.equal(r.hardware_id, await c.hardwareId(), `${r.name}: unit_id is its hardware id`);
    await c.close();
    t.match(r, { version: '1.10.0', model: 'Reachy Mini Lite', shared_name: false, yaml_key: r.name });
    t.same(Object.keys(r.txt), ['version', 'robot_name', 'ws_path', 'address', 'model', 'manufacturer', 'caps', 'api', 'unit_id'], "the real daemon's TXT keys, in its order");
    ids.push(r.hardware_id ?? '');
  }
  t.equal(new Set(ids).size, 3, 'a hardware id each');
  const human = await discover();
  t.equal(human.code, 0);
  t.match(human.stdout, /^3 robots answered \(mDNS _reachy-mini\._tcp, .* on 127\.0\.0\.1\):/);
  t.match(human.stdout, /NAME +URL +VERSION +HARDWARE ID +MODEL/);
  for (const url of first.urls) t.match(human.stdout, url);
  t.notMatch(human.stdout, /\*/, 'no shared name');
  // The next step it prints is a command line that works as printed here (cli/views/command-line.ts).
  const next = /\nNext: (.+?) {3}\(a robots: block to paste into robot\.yaml\)\n/.exec(human.stdout)?.[1] ?? '';
  t.match(next, /^(robotctl|node bin\/robotctl\.js) robots discover --yaml$/);
  const yaml = await promisify(execFile)('bash', ['-c', next], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', HOME: dir } });
  t.match(yaml.stdout, /^robots:\n {2}reachy_mini-0:\n/m, 'run in a shell, it prints the robots: block');
});

t.test('--yaml is a robots: block that robot.yaml takes as it is', async (t) => {
  const r = await discover('--yaml');
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^robots:\n {2}reachy_mini-0:\n {4}url: http:\/\/127\.0\.0\.1:\d+\n {4}hardware_id: [0-9a-f]{16}\n/m);
  await validYaml(t, r.stdout);
});

t.test('a rename re-advertises; robots that share a name are flagged and keyed apart', async (t) => {
  const c = createDaemonClient({ baseUrl: first.urls[1] as string });
  t.teardown(() => c.close());
  await c.setRobotName('reachy_mini-0');
  const shared = await found();
  t.same(shared.robots.map((r) => [r.name, r.shared_name]), [['reachy_mini-0', true], ['reachy_mini-0', true], ['reachy_mini-2', false]], 'the old name said goodbye');
  const keys = shared.robots.slice(0, 2).map((r) => r.yaml_key);
  for (const [i, key] of keys.entries()) t.equal(key, `reachy_mini-0-${(shared.robots[i]?.hardware_id ?? '').slice(0, key.length - 'reachy_mini-0-'.length)}`);
  t.not(keys[0], keys[1]);
  const human = await discover();
  t.match(human.stdout, /reachy_mini-0 \*/);
  t.match(human.stdout, /robots that answer with the same name/);
  const yaml = await discover('--yaml');
  t.match(yaml.stdout, /# answers as 'reachy_mini-0', like 1 other robot/);
  await validYaml(t, yaml.stdout);
  await c.setRobotName('lab bench');
  const renamed = await found();
  t.same(renamed.robots.map((r) => r.name), ['lab bench', 'reachy_mini-0', 'reachy_mini-2']);
  t.equal(renamed.robots[0]?.yaml_key, 'lab-bench');
  t.equal(renamed.robots[0]?.url, first.urls[1]);
});

t.test('an update re-advertises the new version', async (t) => {
  const url = first.urls[2] as string;
  const c = createDaemonClient({ baseUrl: url });
  t.teardown(() => c.close());
  await c.updateDaemon('1.9.0', { timeoutMs: 60_000 });
  const after = (await found()).robots.find((r) => r.url === url);
  t.match(after, { name: 'reachy_mini-2', version: '1.9.0', hardware_id: ids[2] });
});

// Debian's python3-zeroconf (.ci/run installs it) for Debian's python3.
const python = '/usr/bin/python3';
const noZeroconf = await promisify(execFile)(python, ['-c', 'import zeroconf']).then(() => null, (e: Error) => e.message.split('\n')[0]);

t.test("python-zeroconf, the real daemon's mDNS library, finds the simulated robots, and robotctl finds the robot it registers", {
  skip: noZeroconf === null ? false : `python3-zeroconf is not installed (${noZeroconf}): apt-get install python3-zeroconf`,
}, async (t) => {
  const browse = await promisify(execFile)(python, ['-c', ZEROCONF_BROWSE], { timeout: 30_000 });
  const seen = JSON.parse(browse.stdout) as { name: string; port: number; txt: Record<string, string> }[];
  t.same(seen.map((s) => s.txt.robot_name).sort(), ['lab bench', 'reachy_mini-0', 'reachy_mini-2']);
  t.same(seen.map((s) => `http://${s.txt.address}:${s.port}`).sort(), [...first.urls].sort());
  const real = spawn(python, ['-c', ZEROCONF_REGISTER], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.teardown(() => { if (real.exitCode === null) real.kill('SIGKILL'); });
  await new Promise<void>((resolve) => real.stdout.once('data', () => resolve()));
  // zeroconf does not multicast a record again within a second of its announcement (RFC 6762 §6): the browse's second query, after 1 s, gets it.
  const doc = await found('--timeout', '2s');
  const realbot = doc.robots.find((r) => r.name === 'realbot');
  t.match(realbot, { url: 'http://127.0.0.1:8000', version: '1.9.0', hardware_id: 'abcdef0123456789', model: 'Reachy Mini Wireless' });
  real.stdin.end();
  await new Promise((r) => real.once('exit', r));
  t.notOk((await found()).robots.some((r) => r.name === 'realbot'), 'gone after it unregistered');
});

t.test('a legacy resolver (dig, from a port other than 5353) gets a unicast answer with its id', async (t) => {
  const socket = createSocket('udp4');
  t.teardown(() => socket.close());
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  socket.setMulticastInterface('127.0.0.1');
  const labels = Buffer.concat(['_reachy-mini', '_tcp', 'local'].map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])));
  // id 0x4242, one question: PTR, class IN with the QU bit (0x8001), as `dig -p 5353 @224.0.0.251` can send.
  const query = Buffer.concat([Buffer.from([0x42, 0x42, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]), labels, Buffer.from([0, 0, 12, 0x80, 1])]);
  const replies: Buffer[] = [];
  socket.on('message', (m) => replies.push(m));
  socket.send(query, 5353, '224.0.0.251');
  await until(() => replies.length >= 3, 10_000, 'an answer for each robot');
  for (const reply of replies) {
    t.equal(reply.readUInt16BE(0), 0x4242, 'the query id echoed');
    t.ok(reply.readUInt16BE(6) >= 1, 'at least one answer');
  }
  t.same(replies.map((r) => /(lab bench|reachy_mini-\d)/.exec(r.toString('latin1'))?.[1]).sort(), ['lab bench', 'reachy_mini-0', 'reachy_mini-2']);
});

t.test('hardware ids are the same after the daemon process restarts; names it was given are kept', async (t) => {
  await stop(first.child);
  const again = await fleet(['--robots', '3', '--apps-dir', appsDir], 3);
  const doc = await found();
  t.same(doc.robots.map((r) => r.hardware_id).sort(), [...ids].sort());
  t.equal(doc.robots.find((r) => r.hardware_id === ids[1])?.name, 'lab bench');
  t.equal(doc.robots.find((r) => r.hardware_id === ids[2])?.version, '1.9.0', 'and the version it was updated to');
  await stop(again.child);
});

t.test('--no-mdns: nothing answers, and discover says what to check (exit 0)', async (t) => {
  const quiet = await fleet(['--no-mdns', '--apps-dir', join(dir, 'quiet')], 1);
  const r = await discover();
  t.equal(r.code, 0);
  t.equal(r.stdout, '');
  t.match(r.stderr, /^No Reachy Mini answered within 1\.0s \(mDNS _reachy-mini\._tcp on 127\.0\.0\.1\)\. Check that:/);
  t.match(r.stderr, /same network as the robot/);
  t.match(r.stderr, /UDP port 5353/);
  const json = await discover('--json');
  t.same((JSON.parse(json.stdout) as Found).robots, []);
  t.equal((await discover('--yaml')).stdout, '', 'no block to paste');
  t.notMatch(quiet.child.stderr(), /mDNS/);
  await stop(quiet.child);
});

t.test('without multicast: the daemon does without (one info line), discover exits 1 saying why', async (t) => {
  // A namespace of its own whose loopback is down: no interface can carry multicast.
  const child = spawn('unshare', ['-n', process.execPath, bin, 'daemon', '--sim', '--host', '0.0.0.0', '--port', '0', '--apps-dir', join(dir, 'cut')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => { if (out.includes('listening on')) resolve(); });
    child.on('exit', (code) => reject(new Error(`daemon exited ${String(code)}: ${err}`)));
  });
  child.kill('SIGTERM');
  const code = await new Promise((r) => child.on('exit', r));
  t.equal(code, 0);
  t.same(err.split('\n').filter((l) => l.includes('mDNS')), ['mDNS: not advertising (no IPv4 interface); reach the robot at its URL']);
  t.notMatch(err, /Error|at .*\.js:\d+/, 'no error, no stack');
  const cut = await promisify(execFile)('unshare', ['-n', process.execPath, bin, 'robots', 'discover', '--timeout', '200ms'], { env: { ...process.env, NO_COLOR: '1' } }).then(() => null, (e: { code: number; stderr: string }) => e);
  t.match(cut, { code: 1, stderr: /^Error: cannot browse for robots: multicast is unavailable \(no IPv4 interface\)\. mDNS needs/ });
});

// A browse as the real daemon's discovery.py does it (ServiceBrowser, then get_service_info per robot).
const ZEROCONF_BROWSE = `
import json, time
from zeroconf import Zeroconf, ServiceBrowser, ServiceListener
found = []
class Collect(ServiceListener):
    def add_service(self, zc, type_, name):
        info = zc.get_service_info(type_, name, timeout=3000)
        if info:
            found.append({"name": name, "port": info.port, "txt": {k.decode(): (v or b"").decode() for k, v in info.properties.items()}})
    def update_service(self, *a): pass
    def remove_service(self, *a): pass
zc = Zeroconf(interfaces=["127.0.0.1"])
browser = ServiceBrowser(zc, "_reachy-mini._tcp.local.", listener=Collect())
time.sleep(2)
browser.cancel(); zc.close()
print(json.dumps(found))
`;

// A registration as the real daemon's MdnsServiceRegistration makes it, until stdin closes.
const ZEROCONF_REGISTER = `
import socket, sys
from zeroconf import Zeroconf, ServiceInfo
zc = Zeroconf(interfaces=["127.0.0.1"])
props = {"version": "1.9.0", "robot_name": "realbot", "ws_path": "/ws/sdk", "address": "127.0.0.1", "model": "Reachy Mini Wireless",
         "manufacturer": "Pollen Robotics", "caps": "camera,mic,speaker,motion,apps", "api": "rest+ws", "unit_id": "abcdef0123456789"}
info = ServiceInfo("_reachy-mini._tcp.local.", name="realbot._reachy-mini._tcp.local.", port=8000, properties=props, server="reachy-mini.local.")
zc.register_service(info, allow_name_change=True)
print("registered", flush=True)
sys.stdin.read()
zc.unregister_service(info); zc.close()
`;
