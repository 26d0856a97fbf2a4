import { parse as parseYaml } from 'yaml';
import type { HubContext } from './context.js';
import { namespaceOf } from './repo-events.js';
import type { StoredRepo } from './types.js';
import type { TreeEntry } from './git/git-repos.js';

/** repo_info's answer (ModelInfo / DatasetInfo / SpaceInfo): sha, siblings, lastModified, cardData. */
export async function repoInfoView(ctx: HubContext, repo: StoredRepo, sha: string, blobs: boolean): Promise<Record<string, unknown>> {
  const files = (await ctx.git.tree(repo.type, repo.repoId, sha)).filter((e) => e.type === 'file');
  const commit = await ctx.git.commit(repo.type, repo.repoId, sha);
  const readme = files.find((f) => f.path === 'README.md');
  const card = readme ? cardData((await ctx.git.blob(repo.type, repo.repoId, readme.oid)).toString('utf8')) : null;
  const view: Record<string, unknown> = {
    _id: repo.objectId, id: repo.repoId, author: namespaceOf(repo.repoId), sha,
    private: repo.private, disabled: false, gated: repo.gated ?? false,
    createdAt: repo.createdAt, lastModified: commit.date,
    tags: Array.isArray(card?.tags) ? card.tags.filter((t): t is string => typeof t === 'string') : [],
    siblings: files.map((f) => (blobs ? sibling(f) : { rfilename: f.path })),
    downloads: 0, likes: 0,
  };
  if (card) view.cardData = card;
  if (repo.type === 'model') view.modelId = repo.repoId;
  if (repo.type === 'space') {
    view.sdk = typeof card?.sdk === 'string' ? card.sdk : repo.sdk;
    view.subdomain = repo.repoId.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    view.runtime = { stage: 'RUNNING', hardware: { current: 'cpu-basic', requested: 'cpu-basic' } };
  }
  return view;
}

/** A file with its metadata (files_metadata=True): an LFS file's size is its content's, with `lfs` beside it. */
function sibling(f: TreeEntry): Record<string, unknown> {
  const out: Record<string, unknown> = { rfilename: f.path, size: f.size, blobId: f.oid };
  if (f.lfs) out.lfs = { sha256: f.lfs.oid, size: f.lfs.size, pointerSize: f.lfs.pointerSize };
  return out;
}

/** README.md front matter, the hub's "card data" (tags, sdk…). */
export function cardData(text: string): Record<string, unknown> | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (!m?.[1]) return null;
  try {
    const parsed: unknown = parseYaml(m[1]);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
