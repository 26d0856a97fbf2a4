import t from 'tap';
import { hostname, networkInterfaces } from 'node:os';
import { hostGuard, hostName, isLoopbackName, parseAllowedHost } from '../../lib/allowed-host.js';

// Issue 29.3: the Host rule every server applies (DNS rebinding).

t.test('Host headers are reduced to their name', async (t) => {
  t.equal(hostName('LocalHost:8000'), 'localhost');
  t.equal(hostName('robot.example.org.'), 'robot.example.org', 'a final dot names the same host');
  t.equal(hostName('[::1]:8000'), '::1');
  t.equal(hostName('[fe80::1%25eth0]:8000'), null, 'no IPv6 zone (browsers send none)');
  t.equal(hostName('127.0.0.1'), '127.0.0.1');
  t.equal(hostName('2130706433:8000'), '127.0.0.1', 'IPv4 as the URL parser reads it');
  t.equal(hostName('[::FFFF:127.0.0.1]'), '::ffff:7f00:1');
  t.equal(hostName('evil.example/x'), null, 'no path');
  t.equal(hostName('user@localhost'), null, 'no userinfo');
  t.equal(hostName('evil.example:8000:1'), null, 'two ports');
  t.equal(hostName('[::1'), null);
  t.equal(hostName('[evil.example]:80'), null, 'brackets hold only an IPv6 address');
  t.equal(hostName(':8000'), null);
});

t.test('loopback names and addresses', async (t) => {
  for (const host of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '[::]', '127.1']) t.ok(isLoopbackName(hostName(host) ?? ''), host);
  for (const host of ['localhost.evil.example', '128.0.0.1', '[::2]', 'evil.example', '1.2.7.127', '[::ffff:128.0.0.1]']) t.notOk(isLoopbackName(hostName(host) ?? ''), host);
});

t.test('the guard: loopback, the machine\'s own names and addresses, --allowed-host; everything else refused', async (t) => {
  const guard = hostGuard(['Robot.Example.org']);
  for (const host of [undefined, '', 'localhost:8000', '127.0.0.1:8000', '[::1]:8000', 'robot.example.org:8000', 'ROBOT.example.org']) {
    t.equal(guard.refusal(host), null, String(host));
  }
  const own = hostname().toLowerCase();
  t.equal(guard.refusal(`${own}:8000`), null, 'os.hostname()');
  t.equal(guard.refusal(`${own.split('.')[0] ?? own}.local:8000`), null, '<hostname>.local');
  const addresses = Object.values(networkInterfaces()).flatMap((l) => l ?? []).map((a) => a.address);
  t.ok(addresses.length > 0);
  for (const a of addresses) t.equal(guard.refusal(a.includes(':') ? `[${a}]:8000` : `${a}:8000`), null, a);

  const refused = guard.refusal('evil.example:8000');
  t.equal(refused, "Host 'evil.example:8000' is not allowed: this server answers only under localhost, this machine's names and addresses, and the names given with --allowed-host (DNS rebinding protection). If this is your server's name, restart it with --allowed-host evil.example.");
  t.match(guard.refusal('robot.example.org.evil.example'), /not allowed/, 'a suffix is another name');
  t.match(guard.refusal('evil.example:8000:1'), /restart it with --allowed-host NAME\.$/, 'a malformed Host is refused too');
  t.match(guard.refusal('evil.example'), /not allowed/, 'a refused Host stays refused (not memoised)');
});

t.test('the machine\'s names are read again after a miss, at most once a second', async (t) => {
  let clock = 0;
  const guard = hostGuard([], () => clock);
  t.match(guard.refusal('evil.example'), /not allowed/);
  clock += 5000;
  t.match(guard.refusal('evil.example'), /not allowed/, 'still refused after reading them again');
});

t.test('--allowed-host values', async (t) => {
  t.equal(parseAllowedHost('Robot.Example.org'), 'robot.example.org');
  t.equal(parseAllowedHost('192.168.1.20'), '192.168.1.20');
  t.equal(parseAllowedHost('fd00::2'), 'fd00::2');
  t.equal(parseAllowedHost('[fd00::2]'), 'fd00::2');
  t.equal(parseAllowedHost('my_robot'), 'my_robot');
  for (const bad of ['http://robot.example.org', 'robot.example.org:8000', '', 'a b', '[robot]', '-robot', 'robot..example']) {
    t.throws(() => parseAllowedHost(bad), { message: /^--allowed-host takes a host name or an address, without scheme or port/ }, bad);
  }
});
