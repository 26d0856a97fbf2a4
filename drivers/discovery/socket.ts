import makeMdns from 'multicast-dns';
import type { Answer, Question } from 'dns-packet';
import { MDNS_PORT } from '../../lib/wire/mdns.js';

// A multicast-dns socket on UDP 5353 joined to the mDNS group on one
// interface, beside any other responder on the machine (Avahi, another
// robotctl): bound to 0.0.0.0 so group traffic reaches it (a socket bound to
// the interface's address would not get it), sending out of that interface.
// Shared by the browser (browse.ts) and the simulated daemon's responder.

export type MdnsSocket = ReturnType<typeof makeMdns>;

/** The socket, or why multicast cannot be used on that interface (`addMembership ENODEV`, `bind UDP 5353: EACCES`). */
export function joinGroup(address: string): Promise<MdnsSocket | string> {
  return new Promise((resolve) => {
    let mdns: MdnsSocket;
    try {
      mdns = makeMdns({ interface: address, bind: '0.0.0.0', reuseAddr: true, loopback: true });
    } catch (err) {
      resolve((err as Error).message);
      return;
    }
    let problem: string | null = null;
    const onWarning = (err: NodeJS.ErrnoException): void => { problem ??= `${err.syscall ?? 'socket'} ${err.code ?? err.message}`; };
    mdns.on('warning', onWarning);
    mdns.once('error', (err: NodeJS.ErrnoException) => { mdns.destroy(); resolve(`bind UDP ${MDNS_PORT}: ${err.code ?? err.message}`); });
    mdns.once('ready', () => {
      // multicast-dns joins the group as the socket starts listening, before 'ready'.
      if (problem) { mdns.destroy(); resolve(problem); return; }
      mdns.off('warning', onWarning);
      mdns.on('warning', () => {}); // a malformed packet from some other device is not our failure
      resolve(mdns);
    });
  });
}

type Sent = (err: Error | null) => void;

/** Runs one send; resolves with the error code instead of throwing (an encoding error included). */
function sending(send: (done: Sent) => void): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      send((err) => resolve(err ? (err as NodeJS.ErrnoException).code ?? err.message : null));
    } catch (err) {
      resolve((err as Error).message);
    }
  });
}

export function sendQuery(mdns: MdnsSocket, questions: Question[]): Promise<string | null> {
  return sending((done) => mdns.query({ questions }, done));
}

/** A response to the group, or to one querier (a legacy resolver gets a unicast answer). */
export function sendResponse(mdns: MdnsSocket, packet: { answers: Answer[]; additionals?: Answer[]; id?: number; questions?: Question[] }, to?: { port: number; address: string }): Promise<string | null> {
  return sending((done) => (to ? mdns.respond(packet, to, done) : mdns.respond(packet, done)));
}
