import type { Config, RobotSpec } from '../schema/types.js';
import type { HubClient } from '../drivers/hub/types.js';
import type { DaemonClient } from '../drivers/daemon/types.js';
import type { StateFile } from '../state/types.js';
import type { StateStore } from '../state/store.js';
import { localStore } from '../state/local-store.js';
import type { Plan } from './types.js';
import type { ApplyReport, Reasons } from './report.js';
import { performAction, stopQuietly } from './execute/perform.js';
import { executePlan, type FleetEvent } from './execute/fleet.js';
import type { UnitEmitted } from './execute/machine.js';
import { StateRecorder } from './execute/recorder.js';
import { TerminalError } from './execute/errors.js';

// apply(plan, config, deps, signal, onEvent): the effectful half of the
// reconciler. Executes the plan through the drivers, records every success
// in the state's journal as it happens (the whole state stored at the end),
// and reports each outcome through onEvent.
// `signal` is the polite stop (Ctrl-C): nothing new starts, in-flight
// actions finish and are recorded. `deps.hard` aborts in-flight work too.

export interface ApplyDeps {
  hub: HubClient | null;
  daemon: (robot: RobotSpec) => DaemonClient;
  /** Where the state lives (a backend); wins over statePath. */
  store?: StateStore | null;
  /** A local state file; null (and no store) keeps it in memory (nothing written). */
  statePath?: string | null;
  state: StateFile;
  /** Robots at once (default: rollout.parallelism). */
  parallelism?: number;
  /** How long a started app must stay up to count as started (default: rollout.min_ready). */
  startSettleMs?: number;
  /** Why unreachable robots could not be observed (for the report). */
  reasons?: Reasons;
  hard?: AbortSignal;
}

export type ApplyEvent = UnitEmitted | FleetEvent;

export interface ApplyResult {
  report: ApplyReport;
  state: StateFile;
}

export async function apply(
  plan: Plan,
  config: Config,
  deps: ApplyDeps,
  signal: AbortSignal,
  onEvent: (e: ApplyEvent) => void = () => {},
): Promise<ApplyResult> {
  const store = deps.store ?? (deps.statePath ? localStore(deps.statePath) : null);
  const recorder = new StateRecorder(store?.journal(deps.state) ?? null, deps.state);
  const ctx = { config, hub: deps.hub, daemon: deps.daemon, startSettleMs: deps.startSettleMs ?? config.rollout.minReadyMs };
  const report = await executePlan(plan, {
    robots: Object.keys(config.robots),
    rollout: config.rollout,
    parallelism: deps.parallelism ?? config.rollout.parallelism,
    stop: signal,
    ...(deps.hard ? { hard: deps.hard } : {}),
    ...(deps.reasons ? { reasons: deps.reasons } : {}),
    onEvent,
    effects: {
      perform: (action, sig) => performAction(action, ctx, sig),
      record: (action, performed) => recorder.record(action, performed.result),
      resolveConflict: async (action, sig) => {
        if (!('robot' in action)) throw new TerminalError('conflict outside a robot');
        const robot = config.robots[action.robot];
        if (!robot) throw new TerminalError(`robot ${action.robot} is not in robot.yaml`);
        await stopQuietly(deps.daemon(robot), sig);
      },
    },
  }).catch(async (err: unknown) => {
    await recorder.close().catch(() => {}); // store what was recorded; the first error is the one to tell
    throw err;
  });
  return { report, state: await recorder.close() };
}
