import type { IncomingMessage } from 'node:http';

export type BodyResult = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/**
 * Read the whole request body, stopping at maxBytes. A declared
 * content-length over the limit is refused before reading anything; the rest
 * of an oversized body is left for node:http to discard.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult): void => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onAbort = (): void => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}
