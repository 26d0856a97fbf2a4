import { setMaxListeners } from 'node:events';
import { createActor, fromPromise, type ActorOptions } from 'xstate';
import type { Action } from '../types.js';
import { RecordFailed, unitMachine, type UnitEmitted, type UnitInput, type UnitOutput } from './machine.js';
import type { Performed } from './perform.js';
import { shortReason } from './errors.js';
import { watchRetries } from '../../lib/retry.js';

// Runs one unit actor with the real effects plugged in, and turns its life
// into a promise. `stop` asks it to finish the action in flight and end;
// `hard` (a second Ctrl-C) stops the actor at once, which aborts the signal
// its effect was given.

export interface UnitEffects {
  perform(action: Action, signal: AbortSignal): Promise<Performed>;
  record(action: Action, performed: Performed): Promise<void>;
  /** Clear the way for a start refused because another app runs. */
  resolveConflict(action: Action, signal: AbortSignal): Promise<void>;
}

export interface RunUnitOptions {
  stop?: AbortSignal;
  hard?: AbortSignal;
  clock?: ActorOptions<typeof unitMachine>['clock'];
  onEvent?: (e: UnitEmitted) => void;
}

/** `onEvent` also hears the drivers' retries of an action (as `action.retrying`). */
export function providedMachine(effects: UnitEffects, unit = '', onEvent?: (e: UnitEmitted) => void) {
  return unitMachine.provide({
    actors: {
      performAndRecord: fromPromise<Performed & { ms: number }, { action: Action }>(async ({ input, signal }) => {
        // Drivers tie one listener per request to this signal (polls make many).
        setMaxListeners(0, signal);
        const t0 = performance.now();
        const done = await watchRetries((e) => onEvent?.({
          type: 'action.retrying', unit, action: input.action, attempt: e.attempt, delayMs: e.delayMs, error: shortReason(e.error),
        }), () => effects.perform(input.action, signal));
        const ms = Math.round(performance.now() - t0);
        // Recorded whatever the signal says: what happened is kept.
        try {
          await effects.record(input.action, done);
        } catch (err) {
          throw new RecordFailed(err);
        }
        return { ...done, ms };
      }),
      resolveConflict: fromPromise<void, { action: Action }>(({ input, signal }) => effects.resolveConflict(input.action, signal)),
    },
  });
}

export function runUnit(input: UnitInput, effects: UnitEffects, opts: RunUnitOptions = {}): Promise<UnitOutput> {
  const actor = createActor(providedMachine(effects, input.unit, opts.onEvent), { input, ...(opts.clock ? { clock: opts.clock } : {}) });
  return new Promise<UnitOutput>((resolve, reject) => {
    const cleanup: (() => void)[] = [];
    let settled = false;
    const finish = (out: UnitOutput): void => {
      if (settled) return;
      settled = true;
      cleanup.forEach((f) => f());
      resolve(out);
    };
    if (opts.onEvent) {
      const sub = actor.on('*', (e) => opts.onEvent?.(e as UnitEmitted));
      cleanup.push(() => sub.unsubscribe());
    }
    actor.subscribe({
      complete: () => finish(actor.getSnapshot().output as UnitOutput),
      error: (err) => { if (settled) return; settled = true; cleanup.forEach((f) => f()); reject(err); },
    });
    const onStop = (): void => actor.send({ type: 'STOP' });
    const onHard = (): void => {
      const ctx = actor.getSnapshot().context;
      // Settled first: stop() calls `complete` at once, with no output (an actor stopped has none).
      finish({ unit: input.unit, status: 'stopped', completed: ctx.completed, failed: ctx.failed, notDone: input.actions.slice(ctx.index) });
      actor.stop();
    };
    listen(opts.stop, onStop, cleanup);
    listen(opts.hard, onHard, cleanup);
    actor.start();
    if (opts.stop?.aborted) onStop();
  });
}

function listen(signal: AbortSignal | undefined, fn: () => void, cleanup: (() => void)[]): void {
  if (!signal) return;
  // One listener per unit running at once (a fleet of 50 robots means 50).
  setMaxListeners(0, signal);
  signal.addEventListener('abort', fn, { once: true });
  cleanup.push(() => signal.removeEventListener('abort', fn));
}
