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

/** `fn` with a fence check before it is called. */
function guarded<A extends unknown[], R>(fence: Fence, what: string, fn: (...a: A) => Promise<R>): (...a: A) => Promise<R> {
  return async (...a: A): Promise<R> => {
    fence.check(what);
    return fn(...a);
  };
}

/** The hub client with a fence check before each webhook write. */
export function fencedHub(hub: HubClient, fence: Fence): HubClient {
  const guard = <A extends unknown[], R>(what: string, fn: (...a: A) => Promise<R>) => guarded(fence, what, fn);
  return {
    ...hub,
    createWebhook: guard('create a webhook', hub.createWebhook.bind(hub)),
    updateWebhook: guard('update a webhook', hub.updateWebhook.bind(hub)),
    enableWebhook: guard('enable a webhook', hub.enableWebhook.bind(hub)),
    disableWebhook: guard('disable a webhook', hub.disableWebhook.bind(hub)),
    deleteWebhook: guard('delete a webhook', hub.deleteWebhook.bind(hub)),
  };
}

/** The daemon client with a fence check before each robot write. */
export function fencedDaemon(daemon: DaemonClient, fence: Fence): DaemonClient {
  const guard = <A extends unknown[], R>(what: string, fn: (...a: A) => Promise<R>) => guarded(fence, what, fn);
  return {
    ...daemon,
    install: guard('install an app', daemon.install.bind(daemon)),
    remove: guard('remove an app', daemon.remove.bind(daemon)),
    update: guard('update an app', daemon.update.bind(daemon)),
    startApp: guard('start an app', daemon.startApp.bind(daemon)),
    stopCurrentApp: guard('stop an app', daemon.stopCurrentApp.bind(daemon)),
    restartCurrentApp: guard('restart an app', daemon.restartCurrentApp.bind(daemon)),
  };
}
