import type { Readable } from 'node:stream';
import { badRequest } from '../errors.js';
import type { CommitOp } from '../commits.js';

export interface ParsedCommit {
  summary: string;
  description: string;
  parentCommit: string | null;
  ops: CommitOp[];
}

type Line = { key?: unknown; value?: Record<string, unknown> };

function fileOp(key: unknown, v: Record<string, unknown>, n: number): CommitOp {
  const path = typeof v.path === 'string' ? v.path : '';
  switch (key) {
    case 'file': {
      if (v.encoding !== undefined && v.encoding !== 'base64') throw badRequest(`Unsupported encoding for ${path}: use base64`);
      if (typeof v.content !== 'string') throw badRequest(`File ${path} has no content`);
      return { op: 'add', path, content: Buffer.from(v.content, 'base64') };
    }
    // Uploaded before through the LFS batch API; a copy (CommitOperationCopy) sends no size.
    case 'lfsFile': {
      if (v.algo !== undefined && v.algo !== 'sha256') throw badRequest(`LFS file ${path}: unsupported algo ${JSON.stringify(v.algo)} (use sha256)`);
      if (typeof v.oid !== 'string') throw badRequest(`LFS file ${path} has no oid`);
      const size = v.size === undefined || v.size === null ? null : v.size;
      if (size !== null && (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)) throw badRequest(`LFS file ${path}: size must be a number of bytes`);
      return { op: 'addLfs', path, oid: v.oid, size };
    }
    case 'deletedFile': return { op: 'delete', path };
    // huggingface_hub sends a folder as `path/`.
    case 'deletedFolder': return { op: 'deleteFolder', path: path.replace(/\/+$/, '') };
    default: throw badRequest(`Unsupported key ${JSON.stringify(key)} on commit line ${n}`);
  }
}

/** Too large for the hub: fastify's own status for a body over its limit. */
function tooLarge(limit: number): Error {
  return Object.assign(new Error(`Commit body is over ${Math.round(limit / 1024 / 1024)} MiB: commit fewer files at once`), { statusCode: 413 });
}

/**
 * The NDJSON commit body (header, then file / lfsFile / deletedFile /
 * deletedFolder lines), read line by line as it arrives: a commit of many
 * regular files never sits in memory as one string.
 */
export async function readCommitBody(body: unknown, limit: number): Promise<ParsedCommit> {
  if (!body || typeof (body as Readable).on !== 'function') throw badRequest('Commit body must be NDJSON (content-type: application/x-ndjson)');
  const out: ParsedCommit = { summary: '', description: '', parentCommit: null, ops: [] };
  let sawHeader = false;
  let n = 0;
  const line = (text: string): void => {
    n++;
    if (text.trim() === '') return;
    let item: Line;
    try { item = JSON.parse(text) as Line; } catch { throw badRequest(`Commit line ${n} is not JSON`); }
    const v = item.value ?? {};
    if (item.key !== 'header') { out.ops.push(fileOp(item.key, v, n)); return; }
    sawHeader = true;
    out.summary = typeof v.summary === 'string' ? v.summary : '';
    out.description = typeof v.description === 'string' ? v.description : '';
    out.parentCommit = typeof v.parentCommit === 'string' ? v.parentCommit : null;
  };
  let total = 0;
  let parts: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) throw tooLarge(limit);
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      parts.push(chunk.subarray(start, nl));
      line(Buffer.concat(parts).toString('utf8'));
      parts = [];
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  }
  if (parts.length > 0) line(Buffer.concat(parts).toString('utf8'));
  if (!sawHeader || out.summary.trim() === '') throw badRequest('Commit header with a non-empty summary is required');
  return out;
}
