import { HubError, isNotFound } from './errors.js';
import type { HttpResponse, HubHttp } from './http.js';
import type { HubClient, RepoInfo, RepoInfoOptions } from './types.js';
import { uploadAndDescribe, type CommitLine } from './commit-files.js';
import { encPath, repoApiPath, urlPrefix } from './repo-paths.js';
import type { RepoType } from '../../lib/wire/hub.js';

// Repo calls in the wire form of huggingface_hub: create_repo, repo_info,
// create_commit (preupload, LFS uploads, NDJSON commit: commit-files.ts) and
// hf_hub_download.

type RepoCalls = Pick<HubClient, 'createRepo' | 'repoInfo' | 'commit' | 'downloadFile'>;

export function repoCalls(http: HubHttp, json: (res: HttpResponse) => unknown): RepoCalls {
  const repoInfo = async (type: RepoType, repoId: string, signal?: AbortSignal, opts?: string | RepoInfoOptions): Promise<RepoInfo | null> => {
    const { revision, filesMetadata } = typeof opts === 'string' ? { revision: opts, filesMetadata: false } : (opts ?? {});
    const base = revision === undefined ? repoApiPath(type, repoId) : `${repoApiPath(type, repoId)}/revision/${encodeURIComponent(revision)}`;
    const path = filesMetadata ? `${base}?blobs=true` : base;
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

  const commit: RepoCalls['commit'] = async (type, repoId, operations, summary, signal, parentCommit, guard) => {
    const lines = await uploadAndDescribe({ http, json, endpoint: http.url(''), type, repoId, revision: 'main', signal, guard }, operations);
    const res = await http.send({
      method: 'POST', path: `${repoApiPath(type, repoId)}/commit/main`, body: ndjson(lines, summary, parentCommit),
      contentType: 'application/x-ndjson', idempotent: false, signal, guard,
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

function ndjson(lines: CommitLine[], summary: string, parentCommit?: string): string {
  const header: Record<string, string> = { summary, description: '' };
  if (parentCommit) header.parentCommit = parentCommit;
  return [{ key: 'header', value: header }, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n';
}
