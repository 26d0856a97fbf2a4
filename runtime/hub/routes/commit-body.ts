import { badRequest } from '../errors.js';
import type { HubCommitOp } from '../commits.js';

export interface ParsedCommit {
  summary: string;
  description: string;
  parentCommit: string | null;
  ops: HubCommitOp[];
}

type Line = { key?: unknown; value?: Record<string, unknown> };

function fileOp(key: unknown, v: Record<string, unknown>, n: number): HubCommitOp {
  const path = typeof v.path === 'string' ? v.path : '';
  switch (key) {
    case 'file': {
      if (v.encoding !== undefined && v.encoding !== 'base64') throw badRequest(`Unsupported encoding for ${path}: use base64`);
      if (typeof v.content !== 'string') throw badRequest(`File ${path} has no content`);
      return { op: 'add', path, content: Buffer.from(v.content, 'base64') };
    }
    case 'deletedFile': return { op: 'delete', path };
    // huggingface_hub sends a folder as `path/`.
    case 'deletedFolder': return { op: 'deleteFolder', path: path.replace(/\/+$/, '') };
    case 'lfsFile': throw badRequest(`LFS files are not supported by the embedded hub (${path}): upload it as a regular file`);
    default: throw badRequest(`Unsupported key ${JSON.stringify(key)} on commit line ${n}`);
  }
}

/** The NDJSON commit body: header, then file / deletedFile / deletedFolder lines. */
export function parseCommitBody(body: unknown): ParsedCommit {
  if (typeof body !== 'string') throw badRequest('Commit body must be NDJSON (content-type: application/x-ndjson)');
  const out: ParsedCommit = { summary: '', description: '', parentCommit: null, ops: [] };
  let sawHeader = false;
  body.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let item: Line;
    try { item = JSON.parse(line) as Line; } catch { throw badRequest(`Commit line ${i + 1} is not JSON`); }
    const v = item.value ?? {};
    if (item.key !== 'header') { out.ops.push(fileOp(item.key, v, i + 1)); return; }
    sawHeader = true;
    out.summary = typeof v.summary === 'string' ? v.summary : '';
    out.description = typeof v.description === 'string' ? v.description : '';
    out.parentCommit = typeof v.parentCommit === 'string' ? v.parentCommit : null;
  });
  if (!sawHeader || out.summary.trim() === '') throw badRequest('Commit header with a non-empty summary is required');
  return out;
}
