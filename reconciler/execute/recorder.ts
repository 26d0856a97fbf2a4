import type { Action } from '../types.js';
import type { ActionResult, StateFile } from '../../state/types.js';
import { changeOf } from '../state-transition.js';
import { applyInPlace, copyState, type StateJournal } from '../../state/journal.js';

// Every successful action's change to the state, handed to the state's
// journal one at a time (actors finish concurrently; the state is one). The
// journal makes each record durable in O(1) as its backend allows (see
// state/README.md); close() stores the whole state.

export class StateRecorder {
  private chain: Promise<unknown> = Promise.resolve();
  /** This recorder's own copy, changed in place: O(1) per action. */
  private current: StateFile;

  /** `journal` null: keep the state in memory only (dry runs, benchmarks of the executor). */
  constructor(private readonly journal: StateJournal | null, initial: StateFile) {
    this.current = copyState(initial);
  }

  get state(): StateFile {
    return this.current;
  }

  record(action: Action, result: ActionResult): Promise<void> {
    const work = async (): Promise<void> => {
      const change = changeOf(this.current, action, result);
      if (change === null) return; // start/stop: nothing the state keeps
      applyInPlace(this.current, change);
      await this.journal?.record(change, this.current);
    };
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }

  /** After the last record: store everything, and return the state as stored. */
  async close(): Promise<StateFile> {
    await this.chain;
    if (this.journal) this.current = await this.journal.close();
    return this.current;
  }
}
