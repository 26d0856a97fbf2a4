// What the installer needs from a hub: a Space's sha, privacy and file list,
// and each file's bytes at that sha. Backed by the hub driver (see hub.ts).

export interface SpaceSnapshot {
  id: string;
  sha: string;
  private: boolean;
  files: string[];
  lastModified: string | null;
}

export interface SpaceSource {
  snapshot(repoId: string, signal?: AbortSignal): Promise<SpaceSnapshot>;
  download(repoId: string, path: string, sha: string, signal?: AbortSignal): Promise<Buffer>;
}

/** `https://huggingface.co/spaces/alice/hello_app` → `alice/hello_app` (the last two path segments). */
export function spaceIdFromUrl(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not a URL: take it as a path or a bare repo id.
  }
  const parts = path.split('/').filter(Boolean);
  if (parts.length < 2) throw new Error(`Cannot find a Space id (owner/name) in '${url}'`);
  return parts.slice(-2).join('/');
}
