import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HubClient, RepoInfo } from '../../drivers/hub/types.js';
import { sha256OfFile } from '../../lib/file-sha256.js';

// Whether a Space already holds exactly an app folder's files, so that a
// publish of an unchanged folder makes no commit (and no robot restarts its
// app for nothing). A file the hub keeps in LFS is compared by the sha256
// and size the hub reports for it (repo info with files metadata), hashed
// locally as a stream: a model of hundreds of MB is never downloaded for
// this. Other files are compared byte for byte through the hub's resolve
// route: apps are a handful of small files, and this works against any hub,
// huggingface.co included, without relying on optional blob ids.

/** Files the hub creates itself; never part of the comparison, never deleted. */
export const HUB_OWNED = new Set(['.gitattributes']);

export async function spaceHasFiles(client: HubClient, id: string, info: RepoInfo | null, root: string, files: string[]): Promise<boolean> {
  if (!info) return false;
  const remote = new Map(info.siblings.filter((s) => !HUB_OWNED.has(s.rfilename)).map((s) => [s.rfilename, s]));
  if (remote.size !== files.length) return false;
  if (!files.every((f) => remote.has(f))) return false;
  for (const path of files) {
    const local = join(root, path);
    const lfs = remote.get(path)?.lfs;
    if (lfs) {
      if (lfs.size !== statSync(local).size || lfs.sha256 !== (await sha256OfFile(local))) return false;
      continue;
    }
    const theirs = await client.downloadFile('space', id, path, info.sha);
    if (!theirs.equals(readFileSync(local))) return false;
  }
  return true;
}
