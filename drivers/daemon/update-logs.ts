import { WebSocket } from 'undici';

// The update job's log as it is written, from `WS /api/update/ws/logs?job_id=`
// (update.py → bg_job_register.ws_poll_info): each new line as a text frame,
// then a JobInfo JSON frame of the new lines and the job's status; the
// socket ends after a done or failed frame, or when the daemon goes away for
// its restart. The real daemon sends nothing for a job that ended before the
// socket opened: callers poll `/api/update/info` beside it (update.ts).

export type UpdateLogEnd = 'done' | 'failed' | 'closed';

export interface UpdateLogFollower {
  /** Every line so far, in order. */
  readonly lines: string[];
  /** Settles when the job ended or the socket closed (never rejects). */
  ended: Promise<UpdateLogEnd>;
  close(): void;
}

function statusOf(data: string): string | null {
  if (!data.startsWith('{')) return null;
  try {
    const frame = JSON.parse(data) as { status?: unknown; logs?: unknown; error?: unknown };
    if (typeof frame.error === 'string') return 'closed';
    return typeof frame.status === 'string' && Array.isArray(frame.logs) ? frame.status : null;
  } catch {
    return null; // a log line that happens to start with {
  }
}

export function followUpdateLogs(baseUrl: string, jobId: string, onLine: (line: string) => void = () => {}): UpdateLogFollower {
  const lines: string[] = [];
  let settle: (end: UpdateLogEnd) => void = () => {};
  const ended = new Promise<UpdateLogEnd>((resolve) => { settle = resolve; });
  let socket: WebSocket | null = null;
  try {
    const url = new URL(`${baseUrl}/api/update/ws/logs`);
    url.searchParams.set('job_id', jobId);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    socket = new WebSocket(url);
    socket.addEventListener('message', (e) => {
      if (typeof e.data !== 'string') return;
      const status = statusOf(e.data);
      if (status === null) {
        lines.push(e.data);
        onLine(e.data);
      } else if (status === 'done' || status === 'failed' || status === 'closed') settle(status);
    });
    socket.addEventListener('close', () => settle('closed'));
    socket.addEventListener('error', () => settle('closed'));
  } catch {
    settle('closed');
  }
  return {
    lines,
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
