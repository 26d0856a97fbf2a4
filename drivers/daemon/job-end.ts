import { WebSocket } from 'undici';

// A hint that a daemon job has ended, from the job's log WebSocket
// (`/api/apps/ws/apps-manager/{job_id}`, spec robot-daemon.md §4): the
// socket's JobInfo frame with status done/failed, or the socket closing. The
// job-status poll stays the one source of truth; the hint only makes the next
// poll come at once instead of after its backoff (up to 250 ms after the job
// ended, a quarter of a Space redeploy's margin). The real daemon's socket
// never answers when the job ended before it connected: then the polls find
// the end as before. Any failure to connect is ignored for the same reason.

export interface JobEndHint {
  /** Resolves when the socket says the job ended (or closed); never rejects. */
  ended: Promise<void>;
  close(): void;
}

function endedIn(data: unknown): boolean {
  if (typeof data !== 'string' || !data.startsWith('{')) return false;
  try {
    const status = (JSON.parse(data) as { status?: unknown }).status;
    return status === 'done' || status === 'failed';
  } catch {
    return false;
  }
}

export function watchJobEnd(baseUrl: string, jobId: string): JobEndHint {
  let wake: () => void = () => {};
  const ended = new Promise<void>((resolve) => { wake = resolve; });
  let socket: WebSocket | null = null;
  try {
    const url = new URL(`${baseUrl}/api/apps/ws/apps-manager/${encodeURIComponent(jobId)}`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(url);
    socket.addEventListener('message', (e) => { if (endedIn(e.data)) wake(); });
    socket.addEventListener('close', () => wake());
    socket.addEventListener('error', () => {});
  } catch {
    // No hint: the polls alone find the end.
  }
  return {
    ended,
    close: () => {
      try {
        socket?.close();
      } catch {
        // already closed
      }
    },
  };
}
