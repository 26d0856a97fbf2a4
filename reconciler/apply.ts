import type { Config, RobotSpec } from '../schema/types.js';
import type { HubClient } from '../drivers/hub/types.js';
import type { DaemonClient } from '../drivers/daemon/types.js';
import type { StateFile } from '../state/types.js';
import type { HeldLock, StateStore } from '../state/store.js';
import { localStore } from '../state/local-store.js';
import type { Plan } from './types.js';
import type { ApplyReport, Reasons } from './report.js';
import { performAction, stopQuietly } from './execute/perform.js';
import { executePlan, type FleetEvent } from './execute/fleet.js';
import type { UnitEmitted } from './execute/machine.js';
import { StateRecorder } from './execute/recorder.js';
import { TerminalError } from './execute/errors.js';
import { fenceOf, fencedDaemon, fencedHub } from './execute/fence.js';
import { refuseOneRobotTwice } from './execute/one-robot-each.js';

// apply(plan, config, deps, signal, onEvent): the effectful half of the
// reconciler. Executes the plan through the drivers, records every success
// in the state's journal as it happens (the whole state stored at the end),
// and reports each outcome through onEvent.
// `signal` is the polite stop (Ctrl-C): nothing new starts, in-flight
// actions finish and are recorded. `deps.hard` aborts in-flight work too.
// `deps.locks` fence the apply (execute/fence.ts): each hub or robot write
// is sent only while they are held with a margin left, and losing one aborts
// the work in flight as `hard` does.

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
  /** The locks this apply writes under (the state lock, an agent's leader lock). */
  locks?: HeldLock[];
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
  await refuseOneRobotTwice(plan, config, deps.daemon, signal);
  const store = deps.store ?? (deps.statePath ? localStore(deps.statePath) : null);
  const recorder = new StateRecorder(store?.journal(deps.state) ?? null, deps.state, config.webhooks);
  const fence = deps.locks && deps.locks.length > 0 ? fenceOf(deps.locks) : null;
  const hub = fence && deps.hub ? fencedHub(deps.hub, fence) : deps.hub;
  const daemon = fence ? (r: RobotSpec) => fencedDaemon(deps.daemon(r), fence) : deps.daemon;
  const hard = [deps.hard, fence?.lost].filter((s): s is AbortSignal => s !== undefined);
  const ctx = { config, hub, daemon, startSettleMs: deps.startSettleMs ?? config.rollout.minReadyMs };
  const report = await executePlan(plan, {
    robots: Object.keys(config.robots),
    rollout: config.rollout,
    parallelism: deps.parallelism ?? config.rollout.parallelism,
    // A lost lock also stops what has not started (robots of a later wave).
    stop: fence ? AbortSignal.any([signal, fence.lost]) : signal,
    ...(hard.length > 0 ? { hard: AbortSignal.any(hard) } : {}),
    ...(deps.reasons ? { reasons: deps.reasons } : {}),
    onEvent,
    effects: {
      // An install is recorded as an intent before it is sent (kill -9 leaves no orphan).
      perform: async (action, sig) => { await recorder.intent(action); return performAction(action, ctx, sig); },
      record: (action, performed) => recorder.record(action, performed.result),
      resolveConflict: async (action, sig) => {
        if (!('robot' in action)) throw new TerminalError('conflict outside a robot');
        const robot = config.robots[action.robot];
        if (!robot) throw new TerminalError(`robot ${action.robot} is not in robot.yaml`);
        await stopQuietly(daemon(robot), sig);
      },
    },
  }).catch(async (err: unknown) => {
    await recorder.close().catch(() => {}); // store what was recorded; the first error is the one to tell
    throw err;
  });
  return { report, state: await recorder.close() };
}
