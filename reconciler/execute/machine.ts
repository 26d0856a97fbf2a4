import { assign, emit, fromPromise, setup } from 'xstate';
import type { Action } from '../types.js';
import type { Performed } from './perform.js';
import { failureDetail, isAlreadyRunning, shortReason } from './errors.js';

/** The action happened but could not be recorded: nothing else may run. */
export class RecordFailed extends Error {
  constructor(readonly failure: unknown) {
    super(shortReason(failure));
    this.name = 'RecordFailed';
  }
}

/** What a failure is about, for the report: a record's own error rather than its wrapper. */
function reasonOf(error: unknown): string {
  return shortReason(error instanceof RecordFailed ? error.failure : error);
}

/** The failure as the report keeps it: its line, and the robot's own reason and log tail when it gave them. */
function failedOf(action: Action, error: unknown): FailedAction {
  const detail = failureDetail(error instanceof RecordFailed ? error.failure : error);
  return { action, error: reasonOf(error), ...(detail.reason.length > 0 ? { reason: detail.reason, logTail: detail.logTail } : {}) };
}

// One actor per unit of work: the hub, or one robot. It runs the unit's
// actions in order; each one is performed, then recorded in the state file
// before the next one starts, both in one fromPromise actor that honours its
// signal for the effect (one child actor per action: the executor's own cost
// per action was about a fifth of a first apply's CPU with two). A failure to
// record arrives as a RecordFailed and ends the unit whatever continueOnError
// says. The machine never retries: the drivers already did, under the one
// policy of lib/retry.ts, so a failure that reaches it is final for this run.
// "An app is already running" from a start goes through `resolving` (stop,
// then start again): that is a different action, not a retry. STOP lets the
// action in flight finish and be recorded, then ends in `stopped`. The real
// effects are given by the runner with machine.provide(); the defaults here
// refuse to run.

export interface UnitInput {
  unit: string;
  actions: Action[];
  /** The hub goes on after a failed webhook; a robot stops at its first failure. */
  continueOnError: boolean;
}

export interface FailedAction {
  action: Action;
  error: string;
  /** Why, in the robot's own words (pip's ERROR lines, the app's exception): at most five lines (issue 30.1). */
  reason?: string[];
  /** The end of the job's log or the app's traceback (20 lines), for --json. */
  logTail?: string[];
}

export interface UnitOutput {
  unit: string;
  status: 'done' | 'failed' | 'stopped';
  completed: Action[];
  failed: FailedAction[];
  /** Planned but not performed (after a failure, or when stopped). */
  notDone: Action[];
}

interface UnitContext extends UnitInput {
  index: number;
  conflictTried: boolean;
  stopRequested: boolean;
  completed: Action[];
  failed: FailedAction[];
  performed: (Performed & { ms: number }) | null;
  started: number;
  outcome: UnitOutput['status'];
}

export type UnitEmitted =
  | { type: 'action.started'; unit: string; action: Action }
  /** Told by the drivers' retry policy (lib/retry.ts) through run-unit, not by the machine. */
  | { type: 'action.retrying'; unit: string; action: Action; attempt: number; delayMs: number; error: string }
  | { type: 'action.resolving'; unit: string; action: Action; error: string }
  | { type: 'action.done'; unit: string; action: Action; ms: number; performed: Performed }
  | { type: 'action.failed'; unit: string; action: Action; ms: number; error: string; reason?: string[] };

const current = (c: UnitContext): Action => c.actions[c.index] as Action;

const notWired = (what: string) => fromPromise<never, unknown>(async () => {
  throw new Error(`unitMachine: ${what} is not provided`);
});

export const unitMachine = setup({
  types: {
    input: {} as UnitInput,
    context: {} as UnitContext,
    events: {} as { type: 'STOP' },
    output: {} as UnitOutput,
    emitted: {} as UnitEmitted,
  },
  actors: {
    /** Performs the action, then records it (a record's failure rejects with RecordFailed). */
    performAndRecord: notWired('performAndRecord') as unknown as ReturnType<typeof fromPromise<Performed & { ms: number }, { action: Action }>>,
    resolveConflict: notWired('resolveConflict') as unknown as ReturnType<typeof fromPromise<void, { action: Action }>>,
  },
  guards: {
    stopRequested: ({ context }) => context.stopRequested,
    recordFailed: ({ event }) => (event as { error?: unknown }).error instanceof RecordFailed,
    hasNext: ({ context }) => context.index < context.actions.length,
    isConflict: ({ context, event }) =>
      current(context).type === 'start' && !context.conflictTried && isAlreadyRunning((event as { error?: unknown }).error),
    continueOnError: ({ context }) => context.continueOnError,
  },
  actions: {
    begin: assign({ conflictTried: false, performed: null, started: () => Date.now() }),
    announce: emit(({ context }) => ({ type: 'action.started' as const, unit: context.unit, action: current(context) })),
    markFailed: assign({
      failed: ({ context, event }) => [...context.failed, failedOf(current(context), (event as { error?: unknown }).error)],
    }),
    emitFailed: emit(({ context, event }) => {
      const failed = failedOf(current(context), (event as { error?: unknown }).error);
      return { type: 'action.failed' as const, unit: context.unit, action: failed.action, ms: Date.now() - context.started, error: failed.error, ...(failed.reason ? { reason: failed.reason } : {}) };
    }),
    emitDone: emit(({ context }) => ({
      type: 'action.done' as const, unit: context.unit, action: current(context),
      ms: context.performed?.ms ?? 0, performed: { result: context.performed?.result ?? {}, detail: context.performed?.detail ?? '' },
    })),
    advance: assign({
      completed: ({ context }) => (context.performed ? [...context.completed, current(context)] : context.completed),
      index: ({ context }) => context.index + 1,
    }),
  },
}).createMachine({
  id: 'unit',
  context: ({ input }) => ({
    ...input, index: 0, conflictTried: false, stopRequested: false,
    completed: [], failed: [], performed: null, started: 0, outcome: 'done',
  }),
  on: { STOP: { actions: assign({ stopRequested: true }) } },
  initial: 'next',
  states: {
    next: {
      always: [
        { guard: 'stopRequested', target: 'stopped' },
        { guard: 'hasNext', target: 'performing', actions: ['begin', 'announce'] },
        { target: 'done' },
      ],
    },
    performing: {
      invoke: {
        src: 'performAndRecord',
        input: ({ context }) => ({ action: current(context) }),
        onDone: { target: 'next', actions: [assign({ performed: ({ event }) => event.output }), 'emitDone', 'advance'] },
        onError: [
          { guard: 'recordFailed', target: 'failed', actions: ['markFailed', 'emitFailed'] },
          {
            guard: 'isConflict', target: 'resolving',
            actions: [assign({ conflictTried: true }), emit(({ context, event }) => ({
              type: 'action.resolving' as const, unit: context.unit, action: current(context), error: shortReason(event.error),
            }))],
          },
          { guard: 'continueOnError', target: 'next', actions: ['markFailed', 'emitFailed', 'advance'] },
          { target: 'failed', actions: ['markFailed', 'emitFailed'] },
        ],
      },
    },
    resolving: {
      invoke: {
        src: 'resolveConflict',
        input: ({ context }) => ({ action: current(context) }),
        onDone: { target: 'performing' },
        onError: [
          { guard: 'continueOnError', target: 'next', actions: ['markFailed', 'emitFailed', 'advance'] },
          { target: 'failed', actions: ['markFailed', 'emitFailed'] },
        ],
      },
    },
    done: { type: 'final', entry: assign({ outcome: 'done' as const }) },
    failed: { type: 'final', entry: assign({ outcome: 'failed' as const }) },
    stopped: { type: 'final', entry: assign({ outcome: 'stopped' as const }) },
  },
  output: ({ context }) => {
    const status = context.outcome;
    const from = status === 'failed' ? context.index + 1 : context.index;
    return { unit: context.unit, status, completed: context.completed, failed: context.failed, notDone: context.actions.slice(from) };
  },
});

export type UnitMachine = typeof unitMachine;
