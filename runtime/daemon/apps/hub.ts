import type { HubClient } from '../../../drivers/hub/types.js';
import type { SpaceSource, SpaceSnapshot } from './space-source.js';

// Space downloads go through the hub driver, like every other hub call. The
// client is made on the first download (the driver loads undici, a large part
// of the daemon's start-up otherwise).
export function hubSpaceSource(client: () => Promise<HubClient>): SpaceSource {
  return {
    async snapshot(repoId: string, signal?: AbortSignal, revision?: string): Promise<SpaceSnapshot> {
      const hub = await client();
      const info = await hub.repoInfo('space', repoId, signal, revision);
      if (!info) throw new Error(`Space '${repoId}'${revision ? ` at revision ${revision}` : ''} not found on ${hub.endpoint}`);
      const lastModified = typeof info.lastModified === 'string' ? info.lastModified : null;
      return { id: info.id, sha: info.sha, private: info.private === true, files: info.siblings.map((s) => s.rfilename), lastModified,
        url: `${hub.endpoint}/spaces/${info.id}` };
    },
    download: async (repoId, path, sha, signal) => (await client()).downloadFile('space', repoId, path, sha, signal),
  };
}
