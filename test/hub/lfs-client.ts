import { createHash } from 'node:crypto';
import type { Answer } from './hf-client.js';

// huggingface_hub's LFS upload, request by request (_commit_api.py,
// lfs.py): preupload, then POST <repo>.git/info/lfs/objects/batch with the
// LFS headers, a PUT of the bytes to the link it returns (no token: the link
// carries its permission), the verify POST (with the token), and the NDJSON
// commit whose `lfsFile` line names the object.

export const LFS_HEADERS = { accept: 'application/vnd.git-lfs+json', 'content-type': 'application/vnd.git-lfs+json' };

export interface BatchAction { href: string; header?: Record<string, string>; expires_in?: number }
export interface BatchObject {
  oid: string;
  size: number;
  actions?: { upload?: BatchAction; verify?: BatchAction; download?: BatchAction };
  error?: { code: number; message: string };
}

export function sha256(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** `type` as the client's URL prefix: '', 'datasets/', 'spaces/'. */
function prefix(type: string): string {
  return type === 'model' ? '' : `${type}s/`;
}

async function answer<T>(res: Response): Promise<Answer<T>> {
  const text = await res.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body: body as T, headers: res.headers };
}

export function lfsClient(endpoint: string, token: string | null) {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const batch = async (type: string, repoId: string, operation: 'upload' | 'download', objects: { oid: string; size: number }[], ref = 'main') =>
    answer<{ transfer?: string; objects: BatchObject[]; message?: string }>(await fetch(`${endpoint}/${prefix(type)}${repoId}.git/info/lfs/objects/batch`, {
      method: 'POST', headers: { ...LFS_HEADERS, ...auth },
      body: JSON.stringify({ operation, transfers: ['basic', 'multipart'], objects, hash_algo: 'sha256', ref: { name: ref } }),
    }));

  /** lfs_upload: PUT without a token, then verify with it; `content` may differ from what the batch announced. */
  const transfer = async (obj: BatchObject, content: Buffer): Promise<{ put: number; verify: number | null }> => {
    const upload = obj.actions?.upload;
    if (!upload) return { put: 0, verify: null };
    const put = await fetch(upload.href, { method: 'PUT', body: new Uint8Array(content) });
    await put.arrayBuffer();
    const verify = obj.actions?.verify;
    if (!verify || put.status >= 400) return { put: put.status, verify: null };
    const v = await fetch(verify.href, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ oid: obj.oid, size: obj.size }) });
    await v.arrayBuffer();
    return { put: put.status, verify: v.status };
  };

  const preupload = async (type: string, repoId: string, files: { path: string; content: Buffer }[], extra: Record<string, unknown> = {}, rev = 'main', query = '') =>
    answer<{ files: { path: string; uploadMode: string; shouldIgnore: boolean; oid?: string }[] }>(await fetch(`${endpoint}/api/${type}s/${repoId}/preupload/${encodeURIComponent(rev)}${query}`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ files: files.map((f) => ({ path: f.path, sample: f.content.subarray(0, 512).toString('base64'), size: f.content.length })), ...extra }),
    }));

  const commitLfs = async (type: string, repoId: string, summary: string, files: { path: string; oid: string; size?: number }[], rev = 'main') =>
    answer<{ commitOid: string }>(await fetch(`${endpoint}/api/${type}s/${repoId}/commit/${encodeURIComponent(rev)}`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/x-ndjson' },
      body: [{ key: 'header', value: { summary, description: '' } },
        ...files.map((f) => ({ key: 'lfsFile', value: { path: f.path, algo: 'sha256', oid: f.oid, ...(f.size === undefined ? {} : { size: f.size }) } }))]
        .map((l) => JSON.stringify(l)).join('\n'),
    }));

  /** upload_file of an LFS file: batch, transfer, commit. */
  const uploadLfs = async (type: string, repoId: string, path: string, content: Buffer, summary = `Upload ${path}`) => {
    const oid = sha256(content);
    const b = await batch(type, repoId, 'upload', [{ oid, size: content.length }]);
    if (b.status !== 200) throw new Error(`batch ${b.status}: ${JSON.stringify(b.body)}`);
    const obj = b.body.objects[0];
    if (!obj) throw new Error('batch answered no object');
    const t = await transfer(obj, content);
    if (t.put >= 400 || (t.verify !== null && t.verify >= 400)) throw new Error(`transfer ${t.put}/${String(t.verify)}`);
    return commitLfs(type, repoId, summary, [{ path, oid, size: content.length }]);
  };

  return { batch, transfer, preupload, commitLfs, uploadLfs };
}
