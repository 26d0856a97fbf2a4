// The real daemon's rule (spec robot-daemon.md §2): a Space's repo id is the
// last two path segments of its URL, whatever the host. robot.yaml's app
// sources and the daemon's install bodies both go through it, so the planner
// and the daemon always agree on which Space an app comes from.

/** `https://huggingface.co/spaces/alice/hello_app` → `alice/hello_app`. */
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
