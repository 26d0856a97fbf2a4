import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Io } from '../../lib/io.js';
import type { Config } from '../../schema/types.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { packagePath } from '../../lib/paths.js';
import { publishApp } from '../app/publish.js';
import { listAppFiles } from '../app/files.js';

// `up` publishes the example apps the file names (Space `demo/<app>` with a
// folder examples/apps/<app>) to the embedded hub, through the same code as
// `robotctl app publish`. An app whose folder did not change since the last
// `up` (same files, Space still at the revision we made) is not published
// again: a new commit would reinstall it on every robot for nothing.

interface Published {
  [app: string]: { tree: string; sha: string };
}

export interface PublishTarget {
  app: string;
  folder: string;
}

/** Apps of the file whose Space is `<user>/<app>` and that ship as an example folder. */
export function examplesToPublish(config: Config, user: string, examplesDir = packagePath('examples', 'apps')): PublishTarget[] {
  return Object.values(config.apps)
    .filter((a) => a.spaceId === `${user}/${a.name}` && existsSync(join(examplesDir, a.name, 'pyproject.toml')))
    .map((a) => ({ app: a.name, folder: join(examplesDir, a.name) }));
}

export async function publishExamples(targets: PublishTarget[], hub: HubClient, user: string, recordFile: string, io: Io): Promise<void> {
  const record = await readRecord(recordFile);
  for (const { app, folder } of targets) {
    const tree = treeHash(folder);
    const space = `${user}/${app}`;
    const seen = record[app];
    const current = await hub.repoInfo('space', space);
    if (seen && current && seen.tree === tree && seen.sha === current.sha) {
      io.out(`Space ${space} is up to date (${current.sha.slice(0, 7)})\n`);
      continue;
    }
    await publishApp({ path: folder, token: undefined, private: false, check: false }, io);
    const after = await hub.repoInfo('space', space);
    if (after) record[app] = { tree, sha: after.sha };
  }
  await mkdir(dirname(recordFile), { recursive: true });
  await writeFile(recordFile, `${JSON.stringify(record, null, 2)}\n`);
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
