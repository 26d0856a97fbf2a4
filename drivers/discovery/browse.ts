import { networkInterfaces } from 'node:os';
import type { Answer } from 'dns-packet';
import { SERVICE_TYPE } from '../../lib/wire/mdns.js';
import { joinGroup, sendQuery, type MdnsSocket } from './socket.js';
import { RobotCollector } from './collect.js';
import type { BrowseOptions, BrowseResult, DiscoveredRobot } from './types.js';

// Browsing `_reachy-mini._tcp` (RFC 6762 continuous querying, shortened to a
// CLI's few seconds): a PTR query on every IPv4 interface at once, again
// after 1 s and then every 2 s while the browse lasts (a robot that missed
// one query, or whose answer was lost, answers the next; python-zeroconf
// does not multicast a record again within a second of announcing it), and
// a direct SRV/TXT query for an instance whose PTR came alone. One socket
// per interface (socket.ts).

const DEFAULT_TIMEOUT_MS = 3000;
const FIRST_REQUERY_MS = 1000;
const REQUERY_EVERY_MS = 2000;

export class DiscoveryUnavailable extends Error {
  constructor(readonly reasons: { address: string; reason: string }[]) {
    super(`cannot browse for robots: multicast is unavailable (${reasons.map((r) => `${r.address}: ${r.reason}`).join('; ') || 'no IPv4 interface'})`);
    this.name = 'DiscoveryUnavailable';
  }
}

function ipv4Interfaces(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).filter((n) => n.family === 'IPv4').map((n) => n.address));
}

export async function browseRobots(opts: BrowseOptions = {}): Promise<BrowseResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const unavailable: { address: string; reason: string }[] = [];
  const sockets: { address: string; mdns: MdnsSocket }[] = [];
  for (const address of opts.interfaces ?? ipv4Interfaces()) {
    const opened = await joinGroup(address);
    if (typeof opened === 'string') unavailable.push({ address, reason: opened });
    else sockets.push({ address, mdns: opened });
  }
  if (sockets.length === 0) throw new DiscoveryUnavailable(unavailable);

  const collector = new RobotCollector();
  const asked = new Set<string>();
  // Each socket hears every answer (Linux delivers the group's packets to every member socket): say each robot once per change.
  const said = new Map<string, string>();
  const tell = (robot: DiscoveredRobot): void => {
    const key = `${robot.instance}|${robot.url}`;
    const now = JSON.stringify(robot);
    if (said.get(key) === now) return;
    said.set(key, now);
    opts.onRobot?.(robot);
  };
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => { finish = resolve; });
  const onResponse = (packet: { answers: Answer[]; additionals: Answer[] }, rinfo: { address: string }): void => {
    const changed = collector.add([...packet.answers, ...packet.additionals], rinfo);
    for (const robot of changed) tell(robot);
    if (changed.length > 0 && opts.until?.(collector.robots())) finish();
    const missing = collector.incomplete().filter((i) => !asked.has(i));
    if (missing.length > 0) {
      for (const i of missing) asked.add(i);
      const questions = missing.flatMap((name) => [{ name, type: 'SRV' as const }, { name, type: 'TXT' as const }]);
      for (const s of sockets) void sendQuery(s.mdns, questions);
    }
  };
  for (const s of sockets) s.mdns.on('response', onResponse);

  const timers: NodeJS.Timeout[] = [];
  const queryAll = async (): Promise<void> => {
    const results = await Promise.all(sockets.map(async (s) => ({ s, err: await sendQuery(s.mdns, [{ name: SERVICE_TYPE, type: 'PTR' }]) })));
    for (const { s, err } of results) if (err) unavailable.push({ address: s.address, reason: `send ${err}` });
  };
  await queryAll();
  for (let at = FIRST_REQUERY_MS; at < timeoutMs; at += REQUERY_EVERY_MS) timers.push(setTimeout(() => { void queryAll(); }, at));
  timers.push(setTimeout(finish, timeoutMs));
  const onAbort = (): void => finish();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.until?.(collector.robots())) finish();
  try {
    await finished;
  } finally {
    for (const t of timers) clearTimeout(t);
    opts.signal?.removeEventListener('abort', onAbort);
    await Promise.all(sockets.map((s) => new Promise<void>((r) => s.mdns.destroy(() => r()))));
  }
  return { robots: collector.robots(), interfaces: sockets.map((s) => s.address), unavailable: dedupe(unavailable), elapsedMs: performance.now() - started };
}

function dedupe(list: { address: string; reason: string }[]): { address: string; reason: string }[] {
  return [...new Map(list.map((u) => [`${u.address} ${u.reason}`, u])).values()];
}

export type { DiscoveredRobot };
