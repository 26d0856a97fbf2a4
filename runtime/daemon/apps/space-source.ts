// What the installer needs from a hub: a Space's sha, privacy and file list,
// and each file's bytes at that sha. Backed by the hub driver (see hub.ts).

export interface SpaceSnapshot {
  id: string;
  sha: string;
  private: boolean;
  files: string[];
  lastModified: string | null;
  /** The Space's page on the hub it is downloaded from (an embedded hub, not always huggingface.co). */
  url: string;
}

export interface SpaceSource {
  /** At `revision` (a commit or branch; default the head, main). */
  snapshot(repoId: string, signal?: AbortSignal, revision?: string): Promise<SpaceSnapshot>;
  download(repoId: string, path: string, sha: string, signal?: AbortSignal): Promise<Buffer>;
}
