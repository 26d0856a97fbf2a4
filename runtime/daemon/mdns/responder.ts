import type { RemoteInfo } from 'node:dgram';
import type { Answer, Question } from 'dns-packet';
import { MDNS_PORT, SERVICE_TYPE, SERVICE_TYPES_QUERY, instanceName } from '../../../lib/wire/mdns.js';
import { joinGroup, sendResponse, type MdnsSocket } from '../../../drivers/discovery/socket.js';
import { inNetwork, type MdnsInterface } from './interfaces.js';
import { announcement, aRecord, fullAnswer, goodbye, OTHER_TTL, serviceTypeRecord, srvRecord, txtRecord, type ServiceRecord } from './records.js';

// One mDNS responder per interface, shared by every robot of the process (a
// `--robots 100` fleet is one socket per interface, not 100): it answers the
// queries for `_reachy-mini._tcp` that arrive from its own network, one
// packet per robot, as separate robots would. A robot's records are
// announced twice, a second apart, when it registers, and withdrawn with a
// goodbye (RFC 6762 §8.3, §10.1). No probing: an instance label taken on this
// responder gets `-2`, `-3`… as python-zeroconf's `allow_name_change` does.

type Query = { id?: number; questions: Question[]; answers: Answer[] };

const REANNOUNCE_MS = 1000;
const LEGACY_TTL = 10;

export class MulticastUnavailable extends Error {}

export class Responder {
  private readonly services = new Map<string, ServiceRecord>();
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(readonly iface: MdnsInterface, private readonly mdns: MdnsSocket) {
    mdns.on('query', (q, rinfo) => this.answer(q, rinfo));
  }

  /** Binds UDP 5353 and joins the group on the interface; rejects with MulticastUnavailable when it cannot. */
  static async open(iface: MdnsInterface): Promise<Responder> {
    const socket = await joinGroup(iface.address);
    if (typeof socket === 'string') throw new MulticastUnavailable(socket);
    return new Responder(iface, socket);
  }

  /** A label no other robot of this responder uses: `desk`, else `desk-2`, `desk-3`… */
  freeLabel(label: string): string {
    if (!this.services.has(label.toLowerCase())) return label;
    for (let i = 2; ; i++) if (!this.services.has(`${label}-${i}`.toLowerCase())) return `${label}-${i}`;
  }

  /** Registers and announces; resolves once the first announcement left (rejects when it could not be sent). */
  async add(service: ServiceRecord): Promise<void> {
    this.services.set(service.label.toLowerCase(), service);
    try {
      await this.send({ answers: announcement(service) });
    } catch (err) {
      this.services.delete(service.label.toLowerCase());
      throw new MulticastUnavailable(`send ${(err as Error).message}`);
    }
    const again = setTimeout(() => {
      this.timers.delete(again);
      if (this.services.get(service.label.toLowerCase()) === service) void this.send({ answers: announcement(service) }).catch(() => {});
    }, REANNOUNCE_MS);
    again.unref();
    this.timers.add(again);
  }

  /** Withdraws a robot: its goodbye goes out before this resolves. */
  async remove(service: ServiceRecord): Promise<void> {
    if (this.services.get(service.label.toLowerCase()) !== service) return;
    this.services.delete(service.label.toLowerCase());
    await this.send({ answers: goodbye(service) }).catch(() => {});
  }

  close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    return new Promise((resolve) => this.mdns.destroy(() => resolve()));
  }

  private async send(packet: { answers: Answer[]; additionals?: Answer[]; id?: number; questions?: Question[] }, to?: RemoteInfo): Promise<void> {
    const err = await sendResponse(this.mdns, packet, to ? { port: to.port, address: to.address } : undefined);
    if (err) throw new Error(err);
  }

  /** Answers what is ours, only to queries from this interface's network. */
  private answer(q: Query, rinfo: RemoteInfo): void {
    if (this.services.size === 0 || !inNetwork(rinfo.address, this.iface.cidr)) return;
    // A querier not on port 5353 is a legacy resolver (dig, RFC 6762 §6.7): it gets a unicast answer.
    const legacy = rinfo.port !== MDNS_PORT;
    const packets: { answers: Answer[]; additionals: Answer[] }[] = [];
    for (const question of q.questions) packets.push(...this.answersTo(question, q.answers ?? []));
    for (const p of packets) {
      if (legacy) {
        const short = (a: Answer): Answer => ('ttl' in a ? { ...a, ttl: Math.min(a.ttl ?? LEGACY_TTL, LEGACY_TTL), flush: false } : a);
        // The question echoed as asked, but with class IN: a QU bit decodes as a class dns-packet cannot encode.
        const questions = q.questions.map((x) => ({ name: x.name, type: x.type, class: 'IN' as const }));
        void this.send({ id: q.id, questions, answers: p.answers.map(short), additionals: p.additionals.map(short) }, rinfo).catch(() => {});
      } else {
        void this.send(p).catch(() => {});
      }
    }
  }

  private answersTo(question: Question, known: Answer[]): { answers: Answer[]; additionals: Answer[] }[] {
    const name = question.name.toLowerCase();
    const type = question.type;
    const any = String(type) === 'ANY';
    if (name === SERVICE_TYPE && (any || type === 'PTR')) {
      // Known-answer suppression (RFC 6762 §7.1): a querier that holds our PTR with more than half its TTL left does not need it again.
      const held = new Set(known.flatMap((a) => (a.type === 'PTR' && a.name.toLowerCase() === SERVICE_TYPE && (a.ttl ?? 0) * 2 > OTHER_TTL ? [a.data.toLowerCase()] : [])));
      return [...this.services.values()].filter((s) => !held.has(instanceName(s.label).toLowerCase())).map(fullAnswer);
    }
    if (name === SERVICE_TYPES_QUERY && (any || type === 'PTR')) return [{ answers: [serviceTypeRecord()], additionals: [] }];
    for (const s of this.services.values()) {
      if (name === instanceName(s.label).toLowerCase()) {
        const answers = [...(any || type === 'SRV' ? [srvRecord(s)] : []), ...(any || type === 'TXT' ? [txtRecord(s)] : [])];
        return answers.length > 0 ? [{ answers, additionals: type === 'TXT' ? [] : [aRecord(s)] }] : [];
      }
    }
    const host = this.first();
    if (name === host.host.toLowerCase() && (any || type === 'A')) return [{ answers: [aRecord(host)], additionals: [] }];
    return [];
  }

  private first(): ServiceRecord {
    return this.services.values().next().value as ServiceRecord;
  }
}

// The process's responders, by interface address, with how many robots use each.
const open = new Map<string, { responder: Promise<Responder>; users: number }>();

/** The shared responder of an interface (opened by its first user). */
export async function responderFor(iface: MdnsInterface): Promise<Responder> {
  let entry = open.get(iface.address);
  if (!entry) {
    entry = { responder: Responder.open(iface), users: 0 };
    open.set(iface.address, entry);
    entry.responder.catch(() => { if (open.get(iface.address) === entry) open.delete(iface.address); });
  }
  entry.users++;
  try {
    return await entry.responder;
  } catch (err) {
    entry.users--;
    throw err;
  }
}

/** One user is done with it: the last closes the socket. */
export async function releaseResponder(responder: Responder): Promise<void> {
  const entry = open.get(responder.iface.address);
  if (!entry) return;
  entry.users--;
  if (entry.users > 0) return;
  open.delete(responder.iface.address);
  await responder.close();
}
