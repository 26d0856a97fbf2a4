import { hash } from 'node:crypto';

/**
 * The identity of a delivery: the Hub resends the very same body on retry and
 * replay, so sha256(endpoint NUL raw body) identifies it without trusting any
 * header. One-shot crypto.hash: far cheaper than createHash per request.
 */
export function deliveryKey(endpoint: string, body: Buffer): string {
  return hash('sha256', Buffer.concat([Buffer.from(`${endpoint}\0`), body]), 'hex');
}
