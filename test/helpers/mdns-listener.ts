import { createSocket } from 'node:dgram';

// What a test hears of the robots' mDNS service (`_reachy-mini._tcp`) on the
// group, as `robots discover` would: announcements and goodbyes alike. Only
// inside a private network namespace (netns.ts), where 5353 is the test's own.

export interface MdnsListener {
  /** Packets naming the robots' service; with `name`, only those that also name it (a robot's instance). */
  heard(name?: string): number;
  close(): void;
}

export async function listenMdns(): Promise<MdnsListener> {
  const socket = createSocket({ type: 'udp4', reuseAddr: true });
  const packets: string[] = [];
  socket.on('message', (m) => { const s = m.toString('latin1'); if (s.includes('_reachy-mini')) packets.push(s); });
  await new Promise<void>((r) => socket.bind(5353, '0.0.0.0', r));
  socket.addMembership('224.0.0.251', '127.0.0.1');
  return { heard: (name) => (name === undefined ? packets.length : packets.filter((p) => p.includes(name)).length), close: () => socket.close() };
}
