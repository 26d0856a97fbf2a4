import { HubError, isNotFound } from './errors.js';
import type { HttpResponse, HubHttp } from './http.js';
import type { CommitOperation, HubClient, RepoInfo } from './types.js';
import type { RepoType } from '../../lib/wire/hub.js';

// Repo calls in the wire form of huggingface_hub: create_repo, repo_info,
// create_commit (preupload + NDJSON commit) and hf_hub_download.

type RepoCalls = Pick<HubClient, 'createRepo' | 'repoInfo' | 'commit' | 'downloadFile'>;

const encPath = (p: string) => p.split('/').map(encodeURIComponent).join('/');
const repoPath = (type: RepoType, repoId: string) => `/api/${type}s/${encPath(repoId)}`;
const urlPrefix = (type: RepoType) => (type === 'model' ? '' : `/${type}s`);

export function repoCalls(http: HubHttp, json: (res: HttpResponse) => unknown): RepoCalls {
  const repoInfo = async (type: RepoType, repoId: string, signal?: AbortSignal, revision?: string): Promise<RepoInfo | null> => {
    const path = revision === undefined ? repoPath(type, repoId) : `${repoPath(type, repoId)}/revision/${encodeURIComponent(revision)}`;
    try {
      const body = json(await http.send({ method: 'GET', path, idempotent: true, signal })) as RepoInfo | null;
      if (!body || typeof body.sha !== 'string' || !Array.isArray(body.siblings)) {
        throw new HubError(`Unexpected answer from the hub: repo info of ${repoId} without sha/siblings`, { status: null, retriable: false });
      }
      return body;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };

  const createRepo: RepoCalls['createRepo'] = async (type, repoId, opts = {}, signal) => {
    const [organization, name] = repoId.split('/');
    const body: Record<string, unknown> = { name, organization, private: opts.private === true };
    if (type !== 'model') body.type = type;
    if (type === 'space') body.sdk = opts.spaceSdk ?? 'gradio';
    const web = `${http.url('')}${urlPrefix(type)}/${repoId}`;
    try {
      const res = json(await http.send({ method: 'POST', path: '/api/repos/create', json: body, idempotent: false, signal })) as { url?: unknown } | null;
      return { url: typeof res?.url === 'string' ? res.url : web };
    } catch (err) {
      if (!(err instanceof HubError)) throw err;
      if (err.status === 409 && opts.existOk) return { url: web };
      // Unknown outcome: the repo may exist now; that is success only if exist_ok.
      if ((err.status === null || err.status >= 500) && opts.existOk && (await repoInfo(type, repoId, signal))) return { url: web };
      throw err;
    }
  };

  const commit: RepoCalls['commit'] = async (type, repoId, operations, summary, signal, parentCommit) => {
    await checkRegularUploads(http, json, type, repoId, operations, signal);
    const res = await http.send({
      method: 'POST', path: `${repoPath(type, repoId)}/commit/main`, body: ndjson(operations, summary, parentCommit),
      contentType: 'application/x-ndjson', idempotent: false, signal,
    });
    const out = json(res) as { commitOid?: unknown } | null;
    if (typeof out?.commitOid !== 'string') throw new HubError('Unexpected answer from the hub: commit without commitOid', { status: res.status, retriable: false });
    return { commitOid: out.commitOid };
  };

  const downloadFile: RepoCalls['downloadFile'] = async (type, repoId, path, revision = 'main', signal) => {
    const res = await http.download(`${urlPrefix(type)}/${encPath(repoId)}/resolve/${encodeURIComponent(revision)}/${encPath(path)}`, signal);
    return res.body;
  };

  return { createRepo, repoInfo, commit, downloadFile };
}

function ndjson(operations: CommitOperation[], summary: string, parentCommit?: string): string {
  const header: Record<string, string> = { summary, description: '' };
  if (parentCommit) header.parentCommit = parentCommit;
  const lines: unknown[] = [{ key: 'header', value: header }];
  for (const op of operations) {
    if (op.op === 'add') lines.push({ key: 'file', value: { content: op.content.toString('base64'), path: op.path, encoding: 'base64' } });
    else lines.push({ key: 'deletedFile', value: { path: op.path } });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** The hub decides per file whether it must go through LFS; robotctl only sends regular files. */
async function checkRegularUploads(
  http: HubHttp, json: (res: HttpResponse) => unknown, type: RepoType, repoId: string, operations: CommitOperation[], signal?: AbortSignal,
): Promise<void> {
  const adds = operations.filter((o): o is Extract<CommitOperation, { op: 'add' }> => o.op === 'add');
  if (adds.length === 0) return;
  const files = adds.map((o) => ({ path: o.path, sample: o.content.subarray(0, 512).toString('base64'), size: o.content.length }));
  const res = json(await http.send({ method: 'POST', path: `${repoPath(type, repoId)}/preupload/main`, json: { files }, idempotent: true, signal })) as
    { files?: { path?: unknown; uploadMode?: unknown }[] } | null;
  const lfs = (res?.files ?? []).filter((f) => f.uploadMode === 'lfs').map((f) => String(f.path));
  if (lfs.length > 0) {
    throw new HubError(`The hub requires LFS for ${lfs.join(', ')}; robotctl uploads regular files only (use \`hf upload\` for large binaries)`, { status: null, retriable: false });
  }
}
