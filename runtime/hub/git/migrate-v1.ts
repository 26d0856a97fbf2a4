import type { HubStore } from '../store.js';
import type { HubCommitOp } from './fast-import.js';
import { ZERO_SHA, type GitRepos } from './git-repos.js';

// Version-1 data kept each repo's commits in hub.json and files in blobs/.
// Replay them into git once, oldest first, so an existing `robotctl up`
// folder keeps its Spaces (commit ids change: they are git's now).

export async function migrateV1(store: HubStore, git: GitRepos): Promise<number> {
  let moved = 0;
  for (const repo of store.data.repos) {
    const commits = repo.commits;
    if (!commits) continue;
    await git.init(repo.type, repo.repoId);
    let parent: string | null = null;
    let previous: Record<string, string> = {};
    for (const c of commits) {
      const ops: HubCommitOp[] = [];
      for (const [path, oid] of Object.entries(c.tree)) {
        if (previous[path] !== oid) ops.push({ op: 'add', path, content: await store.legacyBlob(oid) });
      }
      for (const path of Object.keys(previous)) if (!(path in c.tree)) ops.push({ op: 'delete', path });
      const message = c.description ? `${c.summary}\n\n${c.description}` : c.summary;
      parent = await git.writeCommit(repo.type, repo.repoId, { parent, ops, message, author: c.author, time: Math.floor(Date.parse(c.date) / 1000) });
      previous = c.tree;
    }
    if (parent) await git.casRef(repo.type, repo.repoId, 'refs/heads/main', parent, ZERO_SHA);
    repo.headSha = parent;
    delete repo.commits;
    moved++;
  }
  if (moved > 0) await store.save();
  return moved;
}
