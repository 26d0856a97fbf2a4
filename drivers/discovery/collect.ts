import type { Answer } from 'dns-packet';
import { SERVICE_TYPE, decodeTxt, instanceLabel, type RobotTxt } from '../../lib/wire/mdns.js';
import type { DiscoveredRobot } from './types.js';

// Robots from mDNS answers, whatever their order: a PTR names an instance,
// its SRV gives port and host, its TXT the rest, the host's A record an
// address. Records are kept by the address that sent them, so two robots
// with one name (two `reachy_mini`s on a LAN answer as the same instance)
// stay two robots; within one sender, by port as well. A goodbye (TTL 0)
// removes what it names. No I/O here: browse.ts feeds it packets.

interface Entry {
  instance: string;
  source: string;
  port: number;
  host: string;
  txt: RobotTxt | null;
}

export interface Sender {
  address: string;
}

const lower = (s: string): string => s.toLowerCase();
const isOurs = (name: string): boolean => instanceLabel(name) !== null;
const ttlOf = (a: Answer): number => ('ttl' in a ? a.ttl ?? 1 : 1);

export class RobotCollector {
  private readonly entries = new Map<string, Entry>();
  private readonly txts = new Map<string, RobotTxt>();
  private readonly hosts = new Map<string, string>();
  private readonly named = new Set<string>();

  /** Takes one response's records; returns the robots it completed or changed. */
  add(records: Answer[], from: Sender): DiscoveredRobot[] {
    const touched = new Set<string>();
    const src = from.address;
    for (const r of records) {
      if (r.type === 'A' && ttlOf(r) > 0) this.hosts.set(`${lower(r.name)}|${src}`, r.data);
    }
    for (const r of records) {
      if (r.type === 'PTR' && lower(r.name) === SERVICE_TYPE && isOurs(r.data)) {
        if (ttlOf(r) === 0) this.forget(r.data, src, null);
        else this.named.add(`${lower(r.data)}|${src}`);
      } else if (r.type === 'TXT' && isOurs(r.name) && ttlOf(r) > 0) {
        const txt = decodeTxt(Array.isArray(r.data) ? r.data : [r.data]);
        this.txts.set(`${lower(r.name)}|${src}`, txt);
        for (const [key, e] of this.entries) if (lower(e.instance) === lower(r.name) && e.source === src) { e.txt = txt; touched.add(key); }
      } else if (r.type === 'SRV' && isOurs(r.name)) {
        if (ttlOf(r) === 0) { this.forget(r.name, src, r.data.port); continue; }
        const key = `${lower(r.name)}|${src}|${r.data.port}`;
        this.entries.set(key, { instance: r.name, source: src, port: r.data.port, host: r.data.target, txt: this.txts.get(`${lower(r.name)}|${src}`) ?? null });
        touched.add(key);
      }
    }
    // A records may have come after the SRV that names their host.
    for (const [key, e] of this.entries) if (e.source === src && records.some((r) => r.type === 'A' && lower(r.name) === lower(e.host))) touched.add(key);
    return [...touched].map((k) => this.entries.get(k)).filter((e): e is Entry => e !== undefined && e.txt !== null).map((e) => this.robotOf(e));
  }

  /** Instances named by a PTR whose SRV or TXT has not come yet: worth asking for directly. */
  incomplete(): string[] {
    const out = new Set<string>();
    for (const key of this.named) {
      const [instance = '', src = ''] = key.split('|');
      const entries = [...this.entries.values()].filter((e) => lower(e.instance) === instance && e.source === src);
      if (entries.length === 0 || entries.some((e) => e.txt === null)) out.add(instance);
    }
    return [...out];
  }

  /** Every complete robot, by name then URL. */
  robots(): DiscoveredRobot[] {
    return [...this.entries.values()].filter((e) => e.txt !== null).map((e) => this.robotOf(e))
      .sort((a, b) => a.name.localeCompare(b.name) || a.url.localeCompare(b.url));
  }

  private forget(instance: string, src: string, port: number | null): void {
    for (const [key, e] of this.entries) {
      if (lower(e.instance) === lower(instance) && e.source === src && (port === null || e.port === port)) this.entries.delete(key);
    }
    if (port === null) this.named.delete(`${lower(instance)}|${src}`);
  }

  private robotOf(e: Entry): DiscoveredRobot {
    const txt = e.txt ?? {};
    const fromA = this.hosts.get(`${lower(e.host)}|${e.source}`);
    const [address, addressFrom] = txt.address ? [txt.address, 'txt' as const] : fromA ? [fromA, 'a-record' as const] : [e.source, 'sender' as const];
    return {
      name: txt.robot_name || (instanceLabel(e.instance) ?? e.instance),
      url: `http://${address.includes(':') ? `[${address}]` : address}:${e.port}`,
      version: txt.version ?? null,
      hardwareId: txt.unit_id || null,
      model: txt.model ?? null,
      instance: e.instance,
      host: e.host,
      port: e.port,
      address,
      addressFrom,
      txt,
    };
  }
}

/** Robots that answer with the same name as another: `reachy_mini` twice is two robots nobody can tell apart by name. */
export function sharedNames(robots: readonly DiscoveredRobot[]): Set<string> {
  const seen = new Map<string, number>();
  for (const r of robots) seen.set(r.name, (seen.get(r.name) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}
