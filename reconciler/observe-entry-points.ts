import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../schema/types.js';
import type { HubClient } from '../drivers/hub/types.js';
import { HubError } from '../drivers/hub/errors.js';
import { appDeclaration, PyprojectProblem } from '../lib/app-entry-points.js';
import { mapBounded } from '../lib/map-bounded.js';
import type { EntryPointsFound, Observation } from './types.js';

// Each declared app's entry points, read where the daemon will read them: a
// Space's pyproject.toml at the revision observe just saw (one download per
// Space through the hub's file API), a `path:` app's from its folder. A file
// that cannot be fetched (the hub away) leaves the app out: the planner then
// uses the state's record of the name.

async function fromText(read: () => Promise<string>, where: string, missing: string, signal?: AbortSignal): Promise<EntryPointsFound | null> {
  let text: string;
  try {
    text = await read();
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof HubError && err.status === 404) return { error: missing };
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { error: missing };
    if (err instanceof HubError || (err as NodeJS.ErrnoException).code !== undefined) return null;
    throw err;
  }
  try {
    return appDeclaration(text, where);
  } catch (err) {
    if (err instanceof PyprojectProblem) return { error: err.message };
    throw err;
  }
}

export async function observeEntryPoints(config: Config, hub: HubClient, spaces: Observation['spaces'], signal?: AbortSignal): Promise<Record<string, EntryPointsFound>> {
  const used = new Set(Object.values(config.robots).flatMap((r) => r.apps));
  const keys = Object.keys(config.apps).filter((k) => used.has(k)).sort();
  const bySpace = new Map<string, Promise<EntryPointsFound | null>>();
  const found = await mapBounded(keys, 8, (key) => {
    const spec = config.apps[key];
    if (spec?.path) {
      const file = join(spec.path, 'pyproject.toml');
      return fromText(() => readFile(file, 'utf8'), file, `the folder ${spec.path} has no pyproject.toml`, signal);
    }
    const id = spec?.spaceId;
    const sha = id ? spaces[id]?.sha ?? null : null;
    if (!id || sha === null) return Promise.resolve(null);
    let read = bySpace.get(id);
    if (!read) {
      read = fromText(async () => (await hub.downloadFile('space', id, 'pyproject.toml', sha, signal)).toString('utf8'),
        `pyproject.toml of Space ${id}`, `Space ${id} has no pyproject.toml at ${sha.slice(0, 7)}: a Reachy Mini app needs one`, signal);
      bySpace.set(id, read);
    }
    return read;
  });
  const out: Record<string, EntryPointsFound> = {};
  keys.forEach((k, i) => { const f = found[i]; if (f) out[k] = f; });
  return out;
}
