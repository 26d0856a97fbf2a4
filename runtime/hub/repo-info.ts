import { parse as parseYaml } from 'yaml';
import type { HubContext } from './context.js';
import { namespaceOf } from './repo-events.js';
import { frontMatter } from './model-card.js';
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
    tags: repoTags(repo, card),
    siblings: files.map((f) => (blobs ? sibling(f) : { rfilename: f.path })),
    downloads: 0, likes: 0, trendingScore: 0,
    usedStorage: files.reduce((sum, f) => sum + f.size, 0),
  };
  if (card) view.cardData = card;
  if (repo.type === 'model') {
    view.modelId = repo.repoId;
    // What the card says the model is, as the Hub lists it (list_models' default keys).
    if (typeof card?.library_name === 'string') view.library_name = card.library_name;
    if (typeof card?.pipeline_tag === 'string') view.pipeline_tag = card.pipeline_tag;
  }
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

const list = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * A repo's tags as the Hub derives them from its card, the ones `list_models(filter=…)` matches: the card's
 * `tags`, then `library_name`, `pipeline_tag` / a Space's `sdk`, and prefixed facts (`license:mit`,
 * `dataset:squad`, `base_model:…`; for datasets `task_categories:…`, `size_categories:…`, `language:…`).
 */
export function repoTags(repo: StoredRepo, card: Record<string, unknown> | null): string[] {
  const c = card ?? {};
  const tags = [...list(c.tags)];
  if (repo.type === 'model') {
    tags.push(...list(c.library_name), ...list(c.pipeline_tag), ...list(c.datasets).map((d) => `dataset:${d}`), ...list(c.base_model).map((b) => `base_model:${b}`), ...list(c.language));
  } else if (repo.type === 'dataset') {
    tags.push(...list(c.task_categories).map((x) => `task_categories:${x}`), ...list(c.size_categories).map((x) => `size_categories:${x}`), ...list(c.language).map((x) => `language:${x}`));
  } else {
    tags.push(...list(c.sdk ?? repo.sdk));
  }
  tags.push(...list(c.license).map((l) => `license:${l}`));
  return [...new Set(tags)];
}

/** README.md front matter, the hub's "card data" (tags, sdk…). */
export function cardData(text: string): Record<string, unknown> | null {
  const yaml = frontMatter(text);
  if (!yaml) return null;
  try {
    const parsed: unknown = parseYaml(yaml);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
