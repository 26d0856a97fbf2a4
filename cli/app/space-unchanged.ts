import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HubClient, RepoInfo } from '../../drivers/hub/types.js';

// Whether a Space already holds exactly an app folder's files, so that a
// publish of an unchanged folder makes no commit (and no robot restarts its
// app for nothing). Compared byte for byte through the hub's resolve route:
// apps are a handful of small files, and this works against any hub,
// huggingface.co included, without relying on optional blob ids.

/** Files the hub creates itself; never part of the comparison, never deleted. */
export const HUB_OWNED = new Set(['.gitattributes']);

export async function spaceHasFiles(client: HubClient, id: string, info: RepoInfo | null, root: string, files: string[]): Promise<boolean> {
  if (!info) return false;
  const remote = info.siblings.map((s) => s.rfilename).filter((f) => !HUB_OWNED.has(f));
  if (remote.length !== files.length) return false;
  const local = new Set(files);
  if (!remote.every((f) => local.has(f))) return false;
  for (const path of files) {
    const theirs = await client.downloadFile('space', id, path, info.sha);
    if (!theirs.equals(readFileSync(join(root, path)))) return false;
  }
  return true;
}
