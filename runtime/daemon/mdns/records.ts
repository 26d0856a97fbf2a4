import type { Answer } from 'dns-packet';
import { SERVICE_TYPE, SERVICE_TYPES_QUERY, encodeTxt, instanceName, type RobotTxt } from '../../../lib/wire/mdns.js';

// The DNS records of one advertised robot, as python-zeroconf (the real
// daemon's library) publishes a ServiceInfo: a shared PTR from the service
// type to the instance, and the instance's own SRV (port, host), TXT and the
// host's A record, those three marked cache-flush (RFC 6762 §10.2). TTLs are
// zeroconf's: 120 s for host-bound records, 4500 s for the others. A goodbye
// is the same records with TTL 0 (§10.1).

export const HOST_TTL = 120;
export const OTHER_TTL = 4500;

export interface ServiceRecord {
  /** The instance label (`desk`), unique on its responder. */
  label: string;
  port: number;
  /** The SRV target, `<hostname>.local`. */
  host: string;
  /** The A record's address: the interface's. */
  address: string;
  txt: RobotTxt;
}

export function ptrRecord(s: ServiceRecord, ttl = OTHER_TTL): Answer {
  return { name: SERVICE_TYPE, type: 'PTR', ttl, data: instanceName(s.label) };
}

export function srvRecord(s: ServiceRecord, ttl = HOST_TTL): Answer {
  return { name: instanceName(s.label), type: 'SRV', ttl, flush: true, data: { port: s.port, target: s.host, priority: 0, weight: 0 } };
}

export function txtRecord(s: ServiceRecord, ttl = OTHER_TTL): Answer {
  return { name: instanceName(s.label), type: 'TXT', ttl, flush: true, data: encodeTxt(s.txt) };
}

export function aRecord(s: ServiceRecord, ttl = HOST_TTL): Answer {
  return { name: s.host, type: 'A', ttl, flush: true, data: s.address };
}

export function serviceTypeRecord(ttl = OTHER_TTL): Answer {
  return { name: SERVICE_TYPES_QUERY, type: 'PTR', ttl, data: SERVICE_TYPE };
}

/** Everything a browser needs in one packet: the PTR answer, the rest as additionals. */
export function fullAnswer(s: ServiceRecord): { answers: Answer[]; additionals: Answer[] } {
  return { answers: [ptrRecord(s)], additionals: [srvRecord(s), txtRecord(s), aRecord(s)] };
}

/** An unsolicited announcement (RFC 6762 §8.3): every record as an answer. */
export function announcement(s: ServiceRecord): Answer[] {
  return [ptrRecord(s), srvRecord(s), txtRecord(s), aRecord(s)];
}

/** The goodbye: the instance's records with TTL 0 (the host's A record stays: other robots share it). */
export function goodbye(s: ServiceRecord): Answer[] {
  return [ptrRecord(s, 0), srvRecord(s, 0), txtRecord(s, 0)];
}

/** A DNS label from a robot name: at most 63 bytes, no dot (it would split the name into labels). */
export function labelOf(name: string): string {
  let label = name.replace(/\./g, '-');
  while (Buffer.byteLength(label) > 63) label = label.slice(0, -1);
  return label || 'reachy_mini';
}

/** The host's label for the SRV target (the real daemon: `socket.gethostname()` + `.local.`). */
export function hostLabel(hostname: string): string {
  const label = hostname.split('.')[0]?.replace(/[^A-Za-z0-9-]/g, '-').replace(/^-+|-+$/g, '') ?? '';
  return `${label || 'robotctl-sim'}.local`;
}
