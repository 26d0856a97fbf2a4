import { WebSocket } from 'undici';
import { APP_STATE_WS_PATH, extensionsOf, type AppStatus, type DaemonStatus } from '../../lib/wire/daemon.js';

// Following a robot's current app (what runs, and in which state) as it
// changes: a manual stop, a crash, a reinstall. robotctl's simulator pushes
// each change on a WebSocket it announces in its daemon status
// (`robotctl_extensions.app_state_ws`); Pollen's daemon has none, so there
// `GET /api/apps/current-app-status` is polled every `pollMs` (the caller
// spreads its robots' polls: reconciler/agent/app-watch.ts). A socket that
// closes (the daemon restarted) falls back to polls and is opened again
// after RECONNECT_MS. Only changes are told; a failed read is told once per
// streak of failures.

const RECONNECT_MS = 5_000;

export interface AppStateEvents {
  /** The current app's status (null: none), each time it changes. */
  onStatus(status: AppStatus | null): void;
  /** The daemon could not be read (once per streak of failures). */
  onError?(message: string): void;
}

export interface FollowOptions extends AppStateEvents {
  /** Between two polls of a daemon without the socket. */
  pollMs: number;
  /** Before the first read (a fleet's followers start spread out, not in one burst). */
  startAfterMs?: number;
}

export interface AppStateFollower {
  /** `socket` while the daemon pushes, `poll` otherwise. */
  readonly mode: 'socket' | 'poll';
  close(): void;
}

export interface FollowCalls {
  baseUrl: string;
  daemonStatus(): Promise<DaemonStatus>;
  current(): Promise<AppStatus | null>;
}

export function followAppState(calls: FollowCalls, opts: FollowOptions): AppStateFollower {
  let closed = false;
  let mode: 'socket' | 'poll' = 'poll';
  let last: string | undefined;
  let failing = false;
  let timer: NodeJS.Timeout | null = null;
  let socket: WebSocket | null = null;
  const tell = (status: AppStatus | null): void => {
    failing = false;
    const json = JSON.stringify(status);
    if (json === last) return;
    last = json;
    opts.onStatus(status);
  };
  const fail = (err: unknown): void => {
    if (failing) return;
    failing = true;
    opts.onError?.(err instanceof Error ? err.message : String(err));
  };
  const later = (fn: () => void, ms: number): void => {
    if (closed) return;
    timer = setTimeout(fn, ms);
    timer.unref();
  };
  const poll = async (): Promise<void> => {
    if (closed || mode === 'socket') return;
    try {
      tell(await calls.current());
    } catch (err) {
      fail(err);
    }
    later(() => void poll(), opts.pollMs);
  };
  const openSocket = (path: string): void => {
    if (closed) return;
    try {
      const url = new URL(`${calls.baseUrl}${path}`);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      const ws = new WebSocket(url);
      socket = ws;
      ws.addEventListener('open', () => {
        mode = 'socket';
        if (timer) clearTimeout(timer);
      });
      ws.addEventListener('message', (e) => {
        try {
          tell(JSON.parse(String(e.data)) as AppStatus | null);
        } catch {
          // not a status: ignored
        }
      });
      ws.addEventListener('close', () => {
        if (closed || socket !== ws) return;
        socket = null;
        mode = 'poll';
        void poll();
        setTimeout(() => openSocket(path), RECONNECT_MS).unref();
      });
      ws.addEventListener('error', () => {});
    } catch {
      // No socket: the polls go on.
    }
  };
  later(() => void (async () => {
    const status = await calls.daemonStatus().catch(() => null);
    const path = extensionsOf(status).app_state_ws;
    if (path === APP_STATE_WS_PATH || (typeof path === 'string' && path.startsWith('/api/'))) openSocket(path);
    void poll();
  })(), opts.startAfterMs ?? 0);
  return {
    get mode() { return mode; },
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      try {
        socket?.close();
      } catch {
        // already closed
      }
    },
  };
}
