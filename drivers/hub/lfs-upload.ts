import type { RepoType } from '../../lib/wire/hub.js';
import { mapBounded } from '../../lib/map-bounded.js';
import { HubError } from './errors.js';
import type { HttpResponse, HubHttp } from './http.js';
import { encPath, urlPrefix } from './repo-paths.js';
import { openContent, type AddOperation } from './upload-source.js';

// LFS uploads as huggingface_hub makes them (lfs.py post_lfs_batch_info and
// lfs_upload, _commit_api._upload_lfs_files): one batch request per 256
// objects at `<repo>.git/info/lfs/objects/batch`; an object the hub already
// has comes back without actions and is skipped; the others are PUT to the
// link the hub returns, with the action's headers and without the token
// (the link carries its permission; on huggingface.co it is a storage
// provider's), then verified with a POST when the hub asks for it. The
// commit that names the objects is made by the caller, after every upload
// succeeded: a failed upload leaves the repo as it was.
//
// Only the basic transfer is offered: multipart (parts of a large file PUT
// to many links, then a completion POST) is what huggingface.co uses above
// 5 GB, and no hub robotctl can test against offers it.

export interface LfsObject {
  path: string;
  /** sha256 of the content, lowercase hex. */
  oid: string;
  size: number;
  op: AddOperation;
}

interface Action { href: string; header: Record<string, string> }
interface BatchAnswer { oid: string; size: number; upload: Action | null; verify: Action | null }

const LFS_JSON = 'application/vnd.git-lfs+json';
/** huggingface_hub's UPLOAD_BATCH_MAX_NUM_FILES. */
const BATCH_OBJECTS = 256;
/** Uploads at once (huggingface_hub uses 5 threads). */
const PARALLEL_UPLOADS = 4;
const DEFAULT_ENDPOINTS = ['https://huggingface.co', 'https://hub-ci.huggingface.co'];

export interface LfsUploadContext {
  http: HubHttp;
  json: (res: HttpResponse) => unknown;
  endpoint: string;
  type: RepoType;
  repoId: string;
  revision: string;
  signal?: AbortSignal | undefined;
  /** Asked before each request (HttpRequest.guard): a lease holder's fence. */
  guard?: (() => void) | undefined;
}

/** Uploads what the hub does not have yet; returns how many objects were sent. */
export async function uploadLfsObjects(ctx: LfsUploadContext, objects: LfsObject[]): Promise<number> {
  const byOid = new Map<string, LfsObject>();
  for (const o of objects) byOid.set(o.oid, o);
  const unique = [...byOid.values()];
  const todo: { object: LfsObject; answer: BatchAnswer }[] = [];
  for (let i = 0; i < unique.length; i += BATCH_OBJECTS) {
    const chunk = unique.slice(i, i + BATCH_OBJECTS);
    for (const answer of await batch(ctx, chunk)) {
      const object = byOid.get(answer.oid);
      if (!object) throw malformed(`an object that was not asked for (${answer.oid})`);
      if (answer.upload) todo.push({ object, answer });
    }
  }
  // One failure stops the others: the commit will not be made anyway.
  const stop = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
  await mapBounded(todo, PARALLEL_UPLOADS, async ({ object, answer }) => {
    try {
      await transfer({ ...ctx, signal }, object, answer);
    } catch (err) {
      stop.abort(err);
      if (ctx.signal?.aborted || !(err instanceof HubError)) throw err;
      throw new HubError(`Uploading ${object.path} (${readableSize(object.size)}) to the hub's LFS storage failed: ${err.message}`, {
        status: err.status, hubMessage: err.hubMessage, failure: err.failure, code: err.code,
      });
    }
  });
  return todo.length;
}

async function batch(ctx: LfsUploadContext, chunk: LfsObject[]): Promise<BatchAnswer[]> {
  const res = ctx.json(await ctx.http.send({
    method: 'POST', path: `${urlPrefix(ctx.type)}/${encPath(ctx.repoId)}.git/info/lfs/objects/batch`,
    json: {
      operation: 'upload', transfers: ['basic'], objects: chunk.map((o) => ({ oid: o.oid, size: o.size })), hash_algo: 'sha256', ref: { name: ctx.revision },
    },
    contentType: LFS_JSON, accept: LFS_JSON, idempotent: true, signal: ctx.signal, guard: ctx.guard,
  })) as { objects?: unknown; transfer?: unknown } | null;
  if (!Array.isArray(res?.objects)) throw malformed('no `objects` list');
  if (res.transfer !== undefined && res.transfer !== null && res.transfer !== 'basic') {
    throw malformed(`transfer ${JSON.stringify(res.transfer)}, but robotctl offered only "basic"`);
  }
  const refused: string[] = [];
  const answers: BatchAnswer[] = [];
  for (const raw of res.objects as unknown[]) {
    const o = (raw ?? {}) as { oid?: unknown; size?: unknown; error?: { code?: unknown; message?: unknown }; actions?: { upload?: unknown; verify?: unknown } };
    if (typeof o.oid !== 'string' || !Number.isSafeInteger(o.size)) throw malformed('an object without oid/size');
    if (o.error) {
      const path = chunk.find((c) => c.oid === o.oid)?.path ?? o.oid;
      refused.push(`${path}: ${String(o.error.message ?? 'refused')} (${String(o.error.code ?? '?')})`);
      continue;
    }
    answers.push({ oid: o.oid, size: o.size as number, upload: action(o.actions?.upload), verify: action(o.actions?.verify) });
  }
  if (refused.length > 0) throw new HubError(`The hub's LFS batch API refused ${refused.join('; ')}`, { status: null, retriable: false });
  return answers;
}

function action(raw: unknown): Action | null {
  if (raw === undefined || raw === null) return null;
  const a = raw as { href?: unknown; header?: unknown };
  if (typeof a.href !== 'string') throw malformed('an action without href');
  if (a.header !== undefined && a.header !== null && typeof a.header !== 'object') throw malformed('an action whose header is not an object');
  const header: Record<string, string> = {};
  for (const [k, v] of Object.entries((a.header ?? {}) as Record<string, unknown>)) header[k] = String(v);
  return { href: a.href, header };
}

async function transfer(ctx: LfsUploadContext, object: LfsObject, answer: BatchAnswer): Promise<void> {
  const upload = answer.upload as Action;
  // chunk_size means a multipart upload, which robotctl did not offer.
  if ('chunk_size' in upload.header) throw malformed(`a multipart upload for ${object.path}, but robotctl offered only "basic"`);
  await ctx.http.sendTo({
    method: 'PUT', href: onEndpoint(upload.href, ctx.endpoint), headers: upload.header, body: () => openContent(object.op),
    contentLength: object.size, withToken: false, signal: ctx.signal, guard: ctx.guard,
  });
  if (answer.verify) {
    await ctx.http.sendTo({
      method: 'POST', href: onEndpoint(answer.verify.href, ctx.endpoint), headers: answer.verify.header,
      body: () => JSON.stringify({ oid: object.oid, size: object.size }), contentType: 'application/json', withToken: true, signal: ctx.signal, guard: ctx.guard,
    });
  }
}

/** huggingface_hub's fix_hf_endpoint_in_url: a link on huggingface.co goes through a custom endpoint (a proxy) instead. */
export function onEndpoint(href: string, endpoint: string): string {
  const base = endpoint.replace(/\/+$/, '');
  if (DEFAULT_ENDPOINTS.includes(base)) return href;
  const from = DEFAULT_ENDPOINTS.find((d) => href === d || href.startsWith(`${d}/`));
  return from ? `${base}${href.slice(from.length)}` : href;
}

function readableSize(size: number): string {
  if (size >= 1e6) return `${(size / 1e6).toFixed(1)} MB`;
  return size >= 1e3 ? `${(size / 1e3).toFixed(1)} kB` : `${size} bytes`;
}

function malformed(what: string): HubError {
  return new HubError(`Unexpected answer from the hub's LFS batch API: ${what}`, { status: null, retriable: false });
}
