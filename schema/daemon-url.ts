// Which daemon a robot's URL names, as one comparable string: scheme and
// host in lower case, the scheme's default port written out, trailing
// slashes dropped from the path, and the loopback names taken as one host
// (`localhost`, `127.0.0.1` and `[::1]` reach the same daemon). Two robots
// whose URLs give one key are one daemon: each apply would switch its
// active app to the other robot's (issue 29.6). null for a URL that does not
// parse (another rule reports it).

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

export function daemonKey(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = LOOPBACK.has(u.hostname.toLowerCase()) ? 'loopback' : u.hostname.toLowerCase();
  const port = u.port || DEFAULT_PORT[u.protocol] || '';
  return `${u.protocol}//${host}:${port}${u.pathname.replace(/\/+$/, '')}`;
}
