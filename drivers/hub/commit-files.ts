import { mapBounded } from '../../lib/map-bounded.js';
import { HubError } from './errors.js';
import { repoApiPath } from './repo-paths.js';
import { uploadLfsObjects, type LfsObject, type LfsUploadContext } from './lfs-upload.js';
import type { CommitOperation } from './types.js';
import { readContent, sha256Of, uploadInfo, type AddOperation, type UploadInfo } from './upload-source.js';

// What create_commit does before its NDJSON commit (_commit_api.py,
// hf_api.create_commit): preupload asks the hub, 256 files at a time, which
// files go through LFS; those are hashed and uploaded (lfs-upload.ts); then
// every operation becomes a commit line: `file` with the content in base64,
// `lfsFile` naming the uploaded object, `deletedFile`.

export type CommitLine =
  | { key: 'file'; value: { content: string; path: string; encoding: 'base64' } }
  | { key: 'lfsFile'; value: { path: string; algo: 'sha256'; oid: string; size: number } }
  | { key: 'deletedFile'; value: { path: string } };

/** huggingface_hub's chunk of preupload. */
const PREUPLOAD_FILES = 256;
/** Files opened at once to read their size and first bytes. */
const OPEN_FILES = 16;


/** Uploads what must go through LFS and returns the commit's lines in the order of `operations`. */
export async function uploadAndDescribe(ctx: LfsUploadContext, operations: CommitOperation[]): Promise<CommitLine[]> {
  const adds = operations.filter((o): o is AddOperation => o.op === 'add');
  const infos = await mapBounded(adds, OPEN_FILES, uploadInfo);
  const modes = await uploadModes(ctx, adds, infos);
  const lfs = new Map<AddOperation, LfsObject>();
  for (const [i, op] of adds.entries()) {
    const size = (infos[i] as UploadInfo).size;
    // An empty file cannot go through LFS (storage refuses it): huggingface_hub commits it as a regular one.
    if (modes.get(op.path) === 'lfs' && size > 0) lfs.set(op, { path: op.path, oid: await sha256Of(op), size, op });
  }
  await uploadLfsObjects(ctx, [...lfs.values()]);
  const lines: CommitLine[] = [];
  for (const op of operations) {
    if (op.op === 'delete') { lines.push({ key: 'deletedFile', value: { path: op.path } }); continue; }
    const object = lfs.get(op);
    lines.push(object
      ? { key: 'lfsFile', value: { path: op.path, algo: 'sha256', oid: object.oid, size: object.size } }
      : { key: 'file', value: { content: (await readContent(op)).toString('base64'), path: op.path, encoding: 'base64' } });
  }
  return lines;
}

async function uploadModes(ctx: LfsUploadContext, adds: AddOperation[], infos: UploadInfo[]): Promise<Map<string, string>> {
  const modes = new Map<string, string>();
  for (let i = 0; i < adds.length; i += PREUPLOAD_FILES) {
    const files = adds.slice(i, i + PREUPLOAD_FILES).map((op, j) => {
      const info = infos[i + j] as UploadInfo;
      return { path: op.path, sample: info.sample.toString('base64'), size: info.size };
    });
    const res = ctx.json(await ctx.http.send({
      method: 'POST', path: `${repoApiPath(ctx.type, ctx.repoId)}/preupload/${encodeURIComponent(ctx.revision)}`, json: { files }, idempotent: true, signal: ctx.signal, guard: ctx.guard,
    })) as { files?: { path?: unknown; uploadMode?: unknown }[] } | null;
    if (!Array.isArray(res?.files)) throw new HubError('Unexpected answer from the hub: preupload without files', { status: null, retriable: false });
    for (const f of res.files) if (typeof f.path === 'string' && typeof f.uploadMode === 'string') modes.set(f.path, f.uploadMode);
  }
  for (const op of adds) {
    const mode = modes.get(op.path);
    if (mode !== 'regular' && mode !== 'lfs') {
      throw new HubError(`Unexpected answer from the hub: preupload gave ${op.path} the upload mode ${JSON.stringify(mode ?? null)}`, { status: null, retriable: false });
    }
  }
  return modes;
}
