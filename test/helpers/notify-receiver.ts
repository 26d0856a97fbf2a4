import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver for robotctl's rollout notices (robot.yaml notify.webhook),
// started by a test on an ephemeral loopback port: it keeps every POST and
// checks its X-Robotctl-Signature as a receiver would (HMAC-SHA256 of the raw
// body with the shared secret, compared in constant time).

export interface ReceivedNotice {
  body: Record<string, unknown>;
  raw: string;
  signature: string | null;
  /** The signature matched the secret the receiver was given. */
  signed: boolean;
}

export interface NotifyReceiver {
  url: string;
  notices: ReceivedNotice[];
  /** Answer this status (once per entry) before answering 204 again: a receiver that fails. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startNotifyReceiver(secret: string | null): Promise<NotifyReceiver> {
  const notices: ReceivedNotice[] = [];
  const failures: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const fail = failures.shift();
      if (fail !== undefined) {
        res.writeHead(fail).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['x-robotctl-signature'];
      const signature = typeof header === 'string' ? header : null;
      notices.push({ body: JSON.parse(raw) as Record<string, unknown>, raw, signature, signed: secret !== null && verify(raw, signature, secret) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/robotctl/notices`,
    notices,
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function verify(raw: string, signature: string | null, secret: string): boolean {
  if (signature === null || !signature.startsWith('sha256=')) return false;
  const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}
