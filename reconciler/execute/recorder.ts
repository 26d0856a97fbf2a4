import type { Action } from '../types.js';
import type { ActionResult, StateFile } from '../../state/types.js';
import { nextState } from '../state-transition.js';
import type { StateStore } from '../../state/store.js';

// The state after every successful action, written through its backend one
// write at a time (actors finish concurrently; the state is one). A kill
// loses at most the action in flight.

export class StateRecorder {
  private chain: Promise<unknown> = Promise.resolve();
  private current: StateFile;

  /** `store` null: keep the state in memory only (dry runs, benchmarks of the executor). */
  constructor(private readonly store: StateStore | null, initial: StateFile) {
    this.current = initial;
  }

  get state(): StateFile {
    return this.current;
  }

  record(action: Action, result: ActionResult): Promise<void> {
    const work = async (): Promise<void> => {
      const next = nextState(this.current, action, result);
      if (next === this.current) return; // start/stop: nothing the state keeps
      this.current = this.store === null ? next : await this.store.write(next);
    };
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => {});
    return run;
  }
}
