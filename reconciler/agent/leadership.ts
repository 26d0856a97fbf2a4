import { errorMessage } from '../../lib/errors.js';
import { describeHolder, LockError, type LockInfo } from '../../state/lock.js';
import type { HeldLock, StateStore } from '../../state/store.js';

// Leader election among the agents that share a state: the leader is the
// holder of the state's `leader` lock (a session advisory lock, a hub lease,
// a lock file). The others stand by, serve their pages, and try again every
// pollMs; when the leader dies the lock heals (session closed, lease expired,
// dead pid) and one of them takes over. Leadership never replaces the state
// lock: each run still takes it, so a person's `apply` can run in between.
// A leader whose lease is lost, or has run short of its margin (it was
// paused), is no leader: `lock` is null then, and each run writes under the
// leader lock it was given (the fence), so it stops once that is lost.

export type Role = 'leader' | 'standby';

export interface LeadershipOptions {
  store: StateStore;
  pollMs: number;
  log: (line: string) => void;
  /** Called each time this agent becomes the leader. */
  onLead: () => void;
}

export interface Leadership {
  readonly role: Role;
  /** The leader lock while it is held safely (not lost, its margin left), else null. */
  readonly lock: HeldLock | null;
  /** Who leads, as a sentence, when this agent stands by. */
  readonly leader: string | null;
  /** First attempt (resolves once the role is known), then polling. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function leadership(o: LeadershipOptions): Leadership {
  let role: Role = 'standby';
  let leader: LockInfo | null = null;
  let held: HeldLock | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let said = '';

  const say = (line: string): void => { if (line !== said) { said = line; o.log(line); } };
  const schedule = (): void => {
    if (!stopped) { timer = setTimeout(() => { void attempt(); }, o.pollMs); timer.unref(); }
  };
  const attempt = async (): Promise<void> => {
    try {
      held = await o.store.lock({ scope: 'leader', timeoutMs: 0, operation: 'agent', onNote: o.log });
    } catch (err) {
      if (err instanceof LockError) {
        leader = err.holder;
        say(`standing by: ${leader ? describeHolder(leader).replace(/^state is locked by/, 'the leader is') : 'another agent leads'}`);
      } else {
        say(`standing by: cannot check leadership (${errorMessage(err)})`);
      }
      schedule();
      return;
    }
    if (stopped) { await held.release(); return; }
    role = 'leader';
    leader = null;
    say(`leader: this agent reconciles (it holds the agents' lock on ${o.store.where})`);
    const mine = held;
    mine.lost.addEventListener('abort', () => {
      if (stopped) return;
      role = 'standby';
      held = null;
      say(`lost leadership (${errorMessage(mine.lost.reason)}): standing by`);
      schedule();
    }, { once: true });
    o.onLead();
  };

  const safe = (): HeldLock | null => (role === 'leader' && held && !held.lost.aborted && held.safeUntil() > Date.now() ? held : null);
  return {
    get role() { return safe() ? 'leader' : 'standby'; },
    get lock() { return safe(); },
    get leader() { return leader ? describeHolder(leader).replace(/^state is locked by /, '') : null; },
    start: attempt,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const h = held;
      held = null;
      role = 'standby';
      await h?.release().catch(() => {});
    },
  };
}
