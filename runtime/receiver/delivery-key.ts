import { hash } from 'node:crypto';

// `<endpoint> NUL` as bytes, made once per endpoint rather than per delivery.
const prefixes = new Map<string, Buffer>();

/**
 * The identity of a delivery: the Hub resends the very same body on retry and
 * replay, so sha256(endpoint NUL raw body) identifies it without trusting any
 * header. One-shot crypto.hash: far cheaper than createHash per request.
 */
export function deliveryKey(endpoint: string, body: Buffer): string {
  let prefix = prefixes.get(endpoint);
  if (!prefix) {
    prefix = Buffer.from(`${endpoint}\0`);
    prefixes.set(endpoint, prefix);
  }
  return hash('sha256', Buffer.concat([prefix, body], prefix.length + body.length), 'hex');
}
