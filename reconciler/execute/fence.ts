import type { HubClient } from '../../drivers/hub/types.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { HeldLock } from '../../state/store.js';
import { TerminalError } from './errors.js';

// Fencing on the executor's side. The locks an apply holds (the state lock,
// and an agent's leader lock) are checked before every hub or robot write:
// a lock that was lost, or whose lease has less than its safety margin left
// (a renewal is overdue: this process was paused, or cut off), stops the
// write before it is sent. A request already in flight when the pause began
// may still land; no new one is sent. `lost` aborts the apply's in-flight
// work (it is the apply's hard stop). The state store checks the same locks
// on its side (the fencing token), so no state write lands either.

export class FencedOut extends TerminalError {
  constructor(what: string) {
    super(`${what}: this process no longer holds its lock safely (lost, or its lease ran short); nothing more is sent`);
    this.name = 'FencedOut';
  }
}

export interface Fence {
  /** Throws FencedOut unless every lock is held with its margin left. */
  check(what: string): void;
  /** Aborted as soon as one of the locks is lost. */
  readonly lost: AbortSignal;
}

export function fenceOf(locks: HeldLock[], now: () => number = Date.now): Fence {
  return {
    check: (what) => {
      for (const l of locks) if (l.lost.aborted || l.safeUntil() <= now()) throw new FencedOut(what);
    },
    lost: AbortSignal.any(locks.map((l) => l.lost)),
  };
}

/** `client` with a fence check before each method named in `writes` (its value names the write for the message). */
function fenced<T extends object>(client: T, fence: Fence, writes: { [K in keyof T]?: string }): T {
  const out: T = { ...client };
  for (const key of Object.keys(writes) as (keyof T)[]) {
    const fn = client[key] as unknown as (...a: unknown[]) => Promise<unknown>;
    const what = writes[key] ?? String(key);
    (out as Record<keyof T, unknown>)[key] = async (...a: unknown[]): Promise<unknown> => {
      fence.check(what);
      return fn.apply(client, a);
    };
  }
  return out;
}

/** The hub client with a fence check before each webhook write. */
export function fencedHub(hub: HubClient, fence: Fence): HubClient {
  return fenced(hub, fence, {
    createWebhook: 'create a webhook', updateWebhook: 'update a webhook', enableWebhook: 'enable a webhook',
    disableWebhook: 'disable a webhook', deleteWebhook: 'delete a webhook',
  });
}

/** The daemon client with a fence check before each robot write. */
export function fencedDaemon(daemon: DaemonClient, fence: Fence): DaemonClient {
  return fenced(daemon, fence, {
    install: 'install an app', remove: 'remove an app', update: 'update an app',
    startApp: 'start an app', stopCurrentApp: 'stop an app', restartCurrentApp: 'restart an app', setRobotName: 'rename the robot',
    startUpdate: 'update the daemon', startUpdateFromRef: 'update the daemon', updateDaemon: 'update the daemon',
  });
}
