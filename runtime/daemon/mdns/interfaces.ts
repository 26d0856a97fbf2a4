import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';

// Where a daemon bound to `host` advertises itself: on the interfaces that
// address is reachable on, and nowhere else (127.0.0.1: loopback only;
// 0.0.0.0: every IPv4 interface; a LAN address: its interface). Each carries
// the `address` its TXT record gives, the robot's own IP on that network.
// mDNS here is IPv4 only, as the real daemon's `address` is.

export interface MdnsInterface {
  /** The interface's IPv4 address: where the multicast group is joined and sent from. */
  address: string;
  /** The TXT `address`: the IP a client on this network reaches the daemon at. */
  advertised: string;
  /** Its network (e.g. 127.0.0.1/8): queries from elsewhere are not answered here. */
  cidr: string;
}

export type InterfaceChoice = { interfaces: MdnsInterface[] } | { none: string };

const ANY = new Set(['0.0.0.0', '::', '']);
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4s(nets: NodeJS.Dict<NetworkInterfaceInfo[]>): NetworkInterfaceInfo[] {
  return Object.values(nets).flatMap((list) => (list ?? []).filter((n) => n.family === 'IPv4' && n.cidr !== null));
}

export function interfacesFor(host: string, nets: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): InterfaceChoice {
  const all = ipv4s(nets);
  const one = (n: NetworkInterfaceInfo, advertised = n.address): MdnsInterface => ({ address: n.address, advertised, cidr: n.cidr as string });
  if (ANY.has(host)) {
    const list = all.map((n) => one(n));
    return list.length > 0 ? { interfaces: list } : { none: 'no IPv4 interface' };
  }
  const addr = host === 'localhost' ? '127.0.0.1' : host;
  if (!IPV4.test(addr)) return { none: `the daemon listens on ${host}, and robotctl advertises IPv4 addresses only` };
  const exact = all.find((n) => n.address === addr);
  if (exact) return { interfaces: [one(exact)] };
  const loopback = all.find((n) => n.internal && inNetwork(addr, n.cidr as string));
  if (loopback) return { interfaces: [one(loopback, addr)] };
  return { none: `no interface has the address ${addr}` };
}

function toNumber(ip: string): number | null {
  const m = IPV4.exec(ip);
  if (!m) return null;
  return m.slice(1, 5).reduce((n, part) => n * 256 + Number(part), 0);
}

/** Whether an IPv4 address is inside a network written as address/prefix. */
export function inNetwork(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const a = toNumber(ip);
  const b = toNumber(base ?? '');
  const prefix = Number(bits);
  if (a === null || b === null || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) return false;
  const size = 2 ** (32 - prefix);
  return Math.floor(a / size) === Math.floor(b / size);
}
