import type { AppRecord, StateFile, WebhookRecord } from './types.js';
import type { RolloutLog } from './rollouts.js';

// What one finished action changed in the state, as a record the backends can
// keep without rewriting the whole state: one webhook's record, or one app's
// on one robot (null: the record is gone), or the rollouts' block (small and
// bounded, replaced whole: state/rollouts.ts). It holds what the state holds and
// nothing more (no secret: a webhook's specHash never covers its secret).

export type StateChange =
  | { webhook: string; record: WebhookRecord | null }
  | { robot: string; app: string; record: AppRecord | null }
  | { rollouts: RolloutLog };

/**
 * How an apply records its outcomes: `record` once per finished action (in
 * order), `close` at the end (also after a failure or an interrupt), which
 * stores everything and returns the stored state. Opened with the state lock
 * held; see state/README.md for what each backend makes durable when.
 */
export interface StateJournal {
  record(change: StateChange, next: StateFile): Promise<void>;
  /**
   * `record`, stored before it resolves on every backend (a remote backend's
   * batch window is not waited for): an intent that must outlive a kill -9
   * between it and the request it announces.
   */
  recordNow(change: StateChange, next: StateFile): Promise<void>;
  close(): Promise<StateFile>;
}

/** `state` with `change` applied (a new object; `state` is not touched). */
export function applyChange(state: StateFile, change: StateChange): StateFile {
  const next = copyState(state);
  applyInPlace(next, change);
  return next;
}

/** A copy that `applyInPlace` may change without touching `state` (its maps copied; records are never mutated). */
export function copyState(state: StateFile): StateFile {
  const robots: StateFile['robots'] = {};
  for (const [name, robot] of Object.entries(state.robots)) robots[name] = { apps: { ...robot.apps } };
  return { ...state, webhooks: { ...state.webhooks }, robots };
}

/** Apply `change` to `state` itself: O(1), for a copy this code owns (a replay, an apply's recorder). */
export function applyInPlace(state: StateFile, change: StateChange): void {
  if ('rollouts' in change) {
    state.rollouts = change.rollouts;
    return;
  }
  if ('webhook' in change) {
    if (change.record) state.webhooks[change.webhook] = change.record;
    else delete state.webhooks[change.webhook];
    return;
  }
  const robot = (state.robots[change.robot] ??= { apps: {} });
  if (change.record) robot.apps[change.app] = change.record;
  else delete robot.apps[change.app];
}

/** Records the state holds (webhooks and installed apps): the size a rewrite costs. */
export function recordCount(state: StateFile): number {
  let n = Object.keys(state.webhooks).length;
  for (const robot of Object.values(state.robots)) n += Object.keys(robot.apps).length;
  return n;
}
