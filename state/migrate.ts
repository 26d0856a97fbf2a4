import { UserError } from '../lib/errors.js';
import type { StateFile } from './types.js';
import type { StateStore, StoreLockOptions } from './store.js';

// `robotctl state migrate`: the state copied as it is (lineage and serial
// kept), both sides locked so that no apply writes either meanwhile. The
// target refuses a state of another lineage, or a newer one of its own.

export async function migrateState(from: StateStore, to: StateStore, opts: Pick<StoreLockOptions, 'timeoutMs' | 'onNote' | 'command'>): Promise<StateFile> {
  const lockFrom = await from.lock({ ...opts, operation: 'migrate' });
  try {
    const lockTo = await to.lock({ ...opts, operation: 'migrate' });
    try {
      const state = await from.read();
      if (!state) throw new UserError(`there is no state in ${from.where} to migrate`);
      return await to.write(state, { exact: true });
    } finally {
      await lockTo.release();
    }
  } finally {
    await lockFrom.release();
  }
}
