import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RepoType } from '../../../lib/wire/hub.js';
import { optionalUser, requireUser, type HubContext } from '../context.js';
import { badRequest, headerSafe, HubApiError } from '../errors.js';
import { canRead, checkGatedAccess, findGitRepo, readableRepo, repoNotFound, REPO_TYPES } from '../repos.js';
import { LfsUploadError } from '../lfs/store.js';
import { SHA256_HEX } from '../lfs/pointer.js';
import { parseRange, sendBytes } from './byte-range.js';
import { LINK_SECONDS, UrlSigner } from '../lfs/signed-url.js';
import type { HubUser, StoredRepo } from '../types.js';

// The Git LFS batch API (basic transfer) at the Hub's address,
// `<repo>.git/info/lfs/objects/batch`: what git-lfs and huggingface_hub
// (lfs.py) call before a push or an LFS upload_file. Uploads and downloads
// then go to signed links on this hub; an upload is kept only if its bytes
// hash to its oid. Xet is not offered: see the xet-*-token routes below.

type Params = { owner: string; name: string; oid?: string };
type Req = FastifyRequest<{ Params: Params; Querystring: Record<string, string | undefined> }>;
const PREFIX: Record<RepoType, string> = { model: '', dataset: '/datasets', space: '/spaces' };
const LFS_JSON = 'application/vnd.git-lfs+json';
const REALM = 'Basic realm="robotctl embedded hub", charset="UTF-8"';
const MAX_OBJECTS = 1000;

interface BatchObject { oid: string; size: number }

function batchObjects(body: unknown): { operation: 'upload' | 'download'; objects: unknown[] } {
  const b = (body ?? {}) as { operation?: unknown; objects?: unknown; hash_algo?: unknown };
  if (b.operation !== 'upload' && b.operation !== 'download') throw badRequest('`operation` must be "upload" or "download"');
  if (b.hash_algo !== undefined && b.hash_algo !== 'sha256') throw badRequest(`Unsupported hash_algo ${JSON.stringify(b.hash_algo)}: this hub uses sha256`);
  if (!Array.isArray(b.objects)) throw badRequest('`objects` must be an array of {oid, size}');
  if (b.objects.length > MAX_OBJECTS) throw badRequest(`At most ${MAX_OBJECTS} objects per batch request`);
  return { operation: b.operation, objects: b.objects };
}

function validObject(o: unknown): BatchObject | string {
  const { oid, size } = (o ?? {}) as { oid?: unknown; size?: unknown };
  if (typeof oid !== 'string' || !SHA256_HEX.test(oid)) return 'oid must be a sha256 in lowercase hex';
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return 'size must be a number of bytes';
  return { oid, size };
}

export function lfsRoutes(ctx: HubContext) {
  const signer = new UrlSigner();
  return async (f: FastifyInstance): Promise<void> => {
    // Object bodies stream to the store untouched, whatever their type.
    f.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    f.addContentTypeParser(LFS_JSON, { parseAs: 'string' }, (_req, body, done) => {
      try { done(null, JSON.parse(String(body)) as unknown); } catch { done(badRequest('Request body is not valid JSON'), undefined); }
    });
    // git-lfs shows `message`; huggingface_hub reads X-Error-Message and `error`.
    f.setErrorHandler((err: FastifyError | HubApiError, req, reply) => {
      const status = err instanceof HubApiError ? err.statusCode : err instanceof LfsUploadError ? 400 : (err.statusCode ?? 500);
      // 501 (no locking) is an answer, not a failure.
      const failed = status >= 500 && status !== 501;
      const message = failed ? 'Internal error in the embedded hub' : err.message;
      if (failed) ctx.log(`hub LFS error: ${err.message}`);
      if (err instanceof HubApiError && err.clientCode) reply.header('x-error-code', err.clientCode);
      if (status === 401) reply.header('www-authenticate', REALM).header('lfs-authenticate', REALM);
      // An upload refused half-way: drain it and close the connection after the answer.
      if (!req.raw.complete) { reply.header('connection', 'close'); req.raw.resume(); }
      return reply.code(status).type(LFS_JSON).header('x-error-message', headerSafe(message)).send({ message, error: message });
    });
    for (const type of REPO_TYPES) routesFor(f, ctx, signer, type);
  };
}

/** The repo a git URL names, as its caller may see it (401 asks git for credentials). */
function visibleRepo(ctx: HubContext, type: RepoType, req: Req, user: HubUser | null): StoredRepo {
  const repo = findGitRepo(ctx, type, req.params.owner, req.params.name);
  if (!repo || !canRead(user, repo)) throw repoNotFound(`${req.params.owner}/${req.params.name}`, user);
  return repo;
}

function routesFor(f: FastifyInstance, ctx: HubContext, signer: UrlSigner, type: RepoType): void {
  const base = `${PREFIX[type]}/:owner/:name/info/lfs`;
  const link = (req: Req, repo: StoredRepo, op: string, o: BatchObject) => {
    const { exp, sig } = signer.sign([op, type, repo.objectId, o.oid, String(o.size)]);
    const host = typeof req.headers.host === 'string' && req.headers.host ? `${req.protocol}://${req.headers.host}` : ctx.baseUrl;
    const path = `${PREFIX[type]}/${repo.repoId}.git/info/lfs/objects/${o.oid}${op === 'verify' ? '/verify' : ''}`;
    return { href: `${host}${encodeURI(path)}?size=${o.size}&exp=${exp}&sig=${sig}`, expires_in: LINK_SECONDS };
  };
  const signed = (req: Req, op: string): { repo: StoredRepo; o: BatchObject } => {
    const repo = findGitRepo(ctx, type, req.params.owner, req.params.name);
    const o = validObject({ oid: req.params.oid, size: Number(req.query.size) });
    if (!repo || typeof o === 'string' || !signer.valid([op, type, repo.objectId, o.oid, String(o.size)], req.query.exp, req.query.sig)) {
      throw new HubApiError('HUB_ERR_FORBIDDEN', 'This LFS link is invalid or expired: ask the batch API for a new one');
    }
    return { repo, o };
  };

  f.post(`${base}/objects/batch`, async (req: Req, reply: FastifyReply) => {
    const user = optionalUser(ctx, req);
    const repo = visibleRepo(ctx, type, req, user);
    const { operation, objects } = batchObjects(req.body);
    // Any reader may upload (a pull request on another's repo carries LFS
    // files too); only a commit by someone allowed to write makes them part of the repo.
    if (operation === 'upload') requireUser(ctx, req);
    else checkGatedAccess(repo, user);
    const out: Record<string, unknown>[] = [];
    for (const raw of objects) {
      const o = validObject(raw);
      if (typeof o === 'string') {
        const r = (raw ?? {}) as { oid?: unknown; size?: unknown };
        out.push({ oid: String(r.oid ?? ''), size: typeof r.size === 'number' ? r.size : 0, error: { code: 422, message: o } });
        continue;
      }
      const have = await ctx.lfs.size(type, repo.repoId, o.oid);
      if (operation === 'upload') {
        out.push(have === o.size ? { ...o, authenticated: true }
          : { ...o, authenticated: true, actions: { upload: link(req, repo, 'upload', o), verify: link(req, repo, 'verify', o) } });
      } else if (have === null) {
        out.push({ ...o, error: { code: 404, message: 'Object does not exist' } });
      } else {
        out.push({ oid: o.oid, size: have, authenticated: true, actions: { download: link(req, repo, 'download', { oid: o.oid, size: have }) } });
      }
    }
    return reply.type(LFS_JSON).send({ transfer: 'basic', objects: out, hash_algo: 'sha256' });
  });

  f.put(`${base}/objects/:oid`, async (req: Req, reply: FastifyReply) => {
    const { repo, o } = signed(req, 'upload');
    const body = (req.body as AsyncIterable<Buffer> | undefined) ?? req.raw;
    await ctx.lfs.receive(type, repo.repoId, o.oid, o.size, body);
    return reply.code(200).send();
  });

  f.post(`${base}/objects/:oid/verify`, async (req: Req) => {
    const { repo, o } = signed(req, 'verify');
    if ((await ctx.lfs.size(type, repo.repoId, o.oid)) !== o.size) throw new HubApiError('HUB_ERR_NOT_FOUND', `LFS object ${o.oid} (${o.size} bytes) was not uploaded`);
    return {};
  });

  f.get(`${base}/objects/:oid`, async (req: Req, reply: FastifyReply) => {
    const { repo, o } = signed(req, 'download');
    const range = parseRange(req.headers.range, o.size);
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${o.size}`).send();
    if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${o.size}`);
    reply.type('application/octet-stream').header('content-length', String(range ? range.end - range.start + 1 : o.size));
    return reply.send(ctx.lfs.open(type, repo.repoId, o.oid, range ?? undefined));
  });

  // No file locking: 501 makes git-lfs turn lock checks off for this remote instead of failing the push.
  const noLocks = async () => { throw Object.assign(new Error('File locking is not supported by the embedded hub'), { statusCode: 501 }); };
  f.post(`${base}/locks/verify`, noLocks);
  f.get(`${base}/locks`, noLocks);

  // huggingface_hub with hf_xet installed (≥ 1.20) asks these before any
  // upload and has no LFS fallback then: say what to do.
  const noXet = async (req: Req) => {
    readableRepo(ctx, type, `${req.params.owner}/${req.params.name}`, optionalUser(ctx, req));
    throw new HubApiError('HUB_ERR_NOT_FOUND', 'The embedded hub does not offer Xet storage: set HF_HUB_DISABLE_XET=1 (or uninstall hf_xet) and huggingface_hub uploads through LFS');
  };
  for (const kind of ['read', 'write']) {
    f.get(`/api/${type}s/:owner/:name/xet-${kind}-token/*`, noXet);
    f.get(`/api/${type}s/:owner/:name/xet-${kind}-token`, noXet);
  }
}
