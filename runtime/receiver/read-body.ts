import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' };

const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };

/**
 * Read the whole request body, stopping at maxBytes, and call `done` once. A
 * declared content-length over the limit is refused before reading anything;
 * the rest of an oversized body is left for node:http to discard. A callback
 * rather than a promise, on every delivery's path: a request the client
 * aborts never ends, so `done` is simply never called and nothing waits on it.
 */
export function readBody(req: IncomingMessage, maxBytes: number, done: (result: BodyResult) => void): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    done(TOO_LARGE);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    if (size > maxBytes) return; // already refused; the rest is discarded
    size += chunk.length;
    if (size > maxBytes) done(TOO_LARGE);
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (size <= maxBytes) done({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
  });
}
