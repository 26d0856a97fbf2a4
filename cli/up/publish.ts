import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Io } from '../../lib/io.js';
import type { Config } from '../../schema/types.js';
import type { HubClient, RepoInfo } from '../../drivers/hub/types.js';
import { packagePath } from '../../lib/paths.js';
import { publishApp } from '../app/publish.js';
import { listAppFiles } from '../app/files.js';
import { spaceHasFiles } from '../app/space-unchanged.js';

// `up` publishes the example apps the file names (Space `demo/<app>` with a
// folder examples/apps/<app>) to the embedded hub, through the same code as
// `robotctl app publish`, and never over commits the folder does not have:
// a Space pushed with git (the loop up's own hint teaches) keeps what was
// pushed, and the robots keep running it. It publishes only when the folder
// changed since the Space's last commit made from it (published.json keeps
// that commit and the folder's hash); otherwise the Space is left as it is
// and `up` says that it is ahead of the folder.

interface Published {
  [app: string]: { tree: string; sha: string };
}

export interface PublishTarget {
  app: string;
  folder: string;
}

/** What up did with an example's Space. */
export interface PublishOutcome extends PublishTarget {
  space: string;
  /** `ahead`: the Space has commits the folder does not have, and was left as it is. */
  outcome: 'published' | 'up-to-date' | 'ahead';
  /** The Space's commit now. */
  sha: string | null;
  /** With `ahead`: the folder changed too since up last published it. */
  folderChanged: boolean;
}

/** Apps of the file whose Space is `<user>/<app>` and that ship as an example folder. */
export function examplesToPublish(config: Config, user: string, examplesDir = packagePath('examples', 'apps')): PublishTarget[] {
  return Object.values(config.apps)
    .filter((a) => a.spaceId === `${user}/${a.name}` && existsSync(join(examplesDir, a.name, 'pyproject.toml')))
    .map((a) => ({ app: a.name, folder: join(examplesDir, a.name) }));
}

export async function publishExamples(targets: PublishTarget[], hub: HubClient, user: string, recordFile: string, io: Io): Promise<PublishOutcome[]> {
  const record = await readRecord(recordFile);
  const outcomes: PublishOutcome[] = [];
  for (const { app, folder } of targets) {
    const tree = treeHash(folder);
    const space = `${user}/${app}`;
    const seen = record[app];
    const current = await hub.repoInfo('space', space, undefined, { filesMetadata: true });
    const base = { app, folder, space, folderChanged: seen !== undefined && seen.tree !== tree };
    const choice = await decide(seen, tree, current, () => spaceHasFiles(hub, space, current, folder, listAppFiles(folder)));
    if (choice === 'up-to-date' && current) {
      record[app] = { tree, sha: current.sha };
      io.out(`Space ${space} is up to date (${current.sha.slice(0, 7)})\n`);
      outcomes.push({ ...base, outcome: 'up-to-date', sha: current.sha });
      continue;
    }
    if (choice === 'ahead' && current) {
      outcomes.push({ ...base, outcome: 'ahead', sha: current.sha });
      continue;
    }
    await publishApp({ path: folder, token: undefined, private: false, check: false }, io);
    const after = await hub.repoInfo('space', space);
    if (after) record[app] = { tree, sha: after.sha };
    outcomes.push({ ...base, outcome: 'published', sha: after?.sha ?? null });
  }
  await mkdir(dirname(recordFile), { recursive: true });
  await writeFile(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  return outcomes;
}

/**
 * Publish, nothing to do, or leave a Space that moved on without the folder.
 * `sameFiles` (downloads the Space's files) is asked only when the quick
 * check cannot tell: a publish by hand of the changed folder is not "ahead".
 */
export async function decide(
  seen: { tree: string; sha: string } | undefined,
  tree: string,
  current: RepoInfo | null,
  sameFiles: () => Promise<boolean>,
): Promise<'publish' | 'up-to-date' | 'ahead'> {
  if (!current) return 'publish';
  if (seen && seen.sha === current.sha && seen.tree === tree) return 'up-to-date';
  if (await sameFiles()) return 'up-to-date';
  // Unknown history (no record of an earlier up) counts as commits made elsewhere: never overwritten.
  if (!seen || seen.sha !== current.sha) return 'ahead';
  return 'publish';
}

function treeHash(folder: string): string {
  const h = createHash('sha256');
  for (const rel of listAppFiles(folder).sort()) h.update(`${rel}\0`).update(readFileSync(join(folder, rel))).update('\0');
  return h.digest('hex');
}

async function readRecord(file: string): Promise<Published> {
  try {
    const data = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Published) : {};
  } catch {
    return {};
  }
}
