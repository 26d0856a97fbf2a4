import type { FastifyReply, FastifyRequest } from 'fastify';

// `Range: bytes=…` on downloads, as the Hub (a CDN) answers it: 206 with
// Content-Range for one satisfiable range, 416 for an unsatisfiable one, the
// whole file otherwise. HfFileSystem streams resume with `bytes=N-`, and
// hf_hub_download resumes a partial file the same way.

/** The one range of a `bytes=` header over `size` bytes: [start, end] inclusive, 'unsatisfiable', or null (whole file). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: the whole file, which RFC 9110 allows.
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** Send `content`, or the part the request's Range asks for. */
export function sendBytes(req: FastifyRequest, reply: FastifyReply, content: Buffer): FastifyReply {
  reply.header('accept-ranges', 'bytes');
  const range = parseRange(req.headers.range, content.length);
  if (range === null) return reply.send(content);
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${content.length}`).send();
  return reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${content.length}`).send(content.subarray(range.start, range.end + 1));
}
