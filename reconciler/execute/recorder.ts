import type { WebhookSpec } from '../../schema/types.js';
import type { Action } from '../types.js';
import type { ActionResult, StateFile } from '../../state/types.js';
import { changeOf, intentOf } from '../state-transition.js';
import { applyInPlace, copyState, type StateChange, type StateJournal } from '../../state/journal.js';
import type { RolloutLog } from '../../state/rollouts.js';

// Every successful action's change to the state, applied to this recorder's
// copy at once (actors finish concurrently; the state is one) and handed to
// the state's journal, which makes each record durable in O(1) as its backend
// allows and may write records that arrive together in one go (see
// state/README.md); close() stores the whole state.

export class StateRecorder {
  /** Records not yet durable: close() waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** This recorder's own copy, changed in place: O(1) per action. */
  private current: StateFile;

  /**
   * `journal` null: keep the state in memory only (dry runs, benchmarks of the
   * executor); `desired`: the webhook specs the plan was made from.
   */
  constructor(private readonly journal: StateJournal | null, initial: StateFile, private readonly desired: Record<string, WebhookSpec>) {
    this.current = copyState(initial);
  }

  get state(): StateFile {
    return this.current;
  }

  // Async, yet the change is applied to the copy before the first await, at
  // the call: concurrent records apply in the order they are made.
  async record(action: Action, result: ActionResult): Promise<void> {
    const change = changeOf(this.current, action, this.desired, result);
    if (change === null) return; // start/stop: nothing the state keeps
    applyInPlace(this.current, change);
    if (!this.journal) return;
    const run = this.journal.record(change, this.current);
    const tracked = run.catch(() => {}).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    await run;
  }

  /** Before `action` is sent: its intent (an install's), stored on every backend before this resolves. */
  async intent(action: Action): Promise<void> {
    const change = intentOf(action);
    if (change === null) return;
    applyInPlace(this.current, change);
    await this.journal?.recordNow(change, this.current);
  }

  /** The rollouts' block (state/rollouts.ts), replaced whole: one record of the journal. */
  async recordRollouts(log: RolloutLog): Promise<void> {
    const change: StateChange = { rollouts: log };
    applyInPlace(this.current, change);
    if (!this.journal) return;
    await this.journal.record(change, this.current);
  }

  /** After the last record: store everything, and return the state as stored. */
  async close(): Promise<StateFile> {
    await Promise.all([...this.inFlight]);
    if (this.journal) this.current = await this.journal.close();
    return this.current;
  }
}
