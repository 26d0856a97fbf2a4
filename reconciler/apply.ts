import type { Config } from '../schema/types.js';
import type { HubClient } from '../drivers/hub/types.js';
import type { DaemonClient } from '../drivers/daemon/types.js';
import type { NotifySender } from '../drivers/notify/webhook.js';
import type { StateFile } from '../state/types.js';
import type { HeldLock, StateStore } from '../state/store.js';
import type { RolloutTrigger } from '../state/rollouts.js';
import { extensionsOf } from '../lib/wire/daemon.js';
import { localStore } from '../state/local-store.js';
import type { Action, Plan, RobotAddress } from './types.js';
import type { ApplyReport, Reasons } from './report.js';
import { performAction, robotDaemon, stopQuietly, type PerformContext } from './execute/perform.js';
import { checkIdentity } from './execute/identity-check.js';
import { canaryOf, executePlan, type FleetEvent, type RollbackEffects } from './execute/fleet.js';
import type { UnitEmitted } from './execute/machine.js';
import type { UnitEffects } from './execute/run-unit.js';
import { StateRecorder } from './execute/recorder.js';
import { TerminalError } from './execute/errors.js';
import { fenceOf, fencedDaemon, fencedHub } from './execute/fence.js';
import { refuseOneRobotTwice } from './execute/one-robot-each.js';
import type { GateProgress } from './execute/health-gate.js';
import { beginRollout, type Rollout, type RolloutEvent } from './rollout.js';
import { isRollout } from './rollout-history.js';
import type { DiscussionRef } from './rollout-notify.js';
import { refuseForeign } from './execute/owned-only.js';

// apply(plan, config, deps, signal, onEvent): the effectful half of the
// reconciler. Executes the plan through the drivers, records every success
// in the state's journal as it happens (the whole state stored at the end),
// and reports each outcome through onEvent. An apply with robot actions is
// a rollout (rollout.ts): waves, the health gate, rollback, its record in
// the state and its notices.
// `signal` is the polite stop (Ctrl-C): nothing new starts, in-flight
// actions finish and are recorded. `deps.hard` aborts in-flight work too.
// `deps.locks` fence the apply (execute/fence.ts): each hub or robot write
// is sent only while they are held with a margin left, and losing one aborts
// the work in flight as `hard` does.

export interface ApplyDeps {
  hub: HubClient | null;
  daemon: (robot: RobotAddress) => DaemonClient;
  /** Where the state lives (a backend); wins over statePath. */
  store?: StateStore | null;
  /** A local state file; null (and no store) keeps it in memory (nothing written). */
  statePath?: string | null;
  state: StateFile;
  /** Robots at once (default: rollout.parallelism). */
  parallelism?: number;
  /** The health gate's window (default: rollout.healthy_for). */
  healthyForMs?: number;
  /** Why unreachable robots could not be observed (for the report). */
  reasons?: Reasons;
  hard?: AbortSignal;
  /** The locks this apply writes under (the state lock, an agent's leader lock). */
  locks?: HeldLock[];
  /** What started the rollout, for its record and notices (default `apply`: a person ran it). */
  trigger?: RolloutTrigger;
  /** The notify webhook's sender (robot.yaml notify.webhook). */
  notify?: NotifySender | null;
  /** Discussions or pull requests the delivery that caused this named (notify.discussion comments there). */
  discussions?: DiscussionRef[];
}

/** Progress of a start's health gate on one robot. */
export type GateEvent = { type: 'robot.gate'; robot: string } & GateProgress;

/** A line an action's job logged as it ran (a daemon update's), for the fleet page's log tail. */
export interface ActionLogEvent {
  type: 'action.log';
  unit: string;
  action: Action;
  line: string;
}

export type ApplyEvent = UnitEmitted | FleetEvent | RolloutEvent | GateEvent | ActionLogEvent;

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
  refuseForeign(plan, deps.state);
  await refuseOneRobotTwice(plan, config, deps.daemon, signal);
  const store = deps.store ?? (deps.statePath ? localStore(deps.statePath) : null);
  const recorder = new StateRecorder(store?.journal(deps.state) ?? null, deps.state, config.webhooks);
  const fence = deps.locks && deps.locks.length > 0 ? fenceOf(deps.locks) : null;
  const hub = fence && deps.hub ? fencedHub(deps.hub, fence) : deps.hub;
  const daemon = fence ? (r: RobotAddress) => fencedDaemon(deps.daemon(r), fence) : deps.daemon;
  const hard = [deps.hard, fence?.lost].filter((s): s is AbortSignal => s !== undefined);
  const ctx: PerformContext = {
    config, hub, daemon, located: plan.located, healthyForMs: deps.healthyForMs ?? config.rollout.healthyForMs,
    onGate: (robot, p) => onEvent({ type: 'robot.gate', robot, ...p }),
    onLog: (action, line) => onEvent({ type: 'action.log', unit: 'robot' in action ? action.robot : 'hub', action, line }),
  };
  const rollout = isRollout(plan)
    ? beginRollout(plan, config, { trigger: deps.trigger ?? 'apply', hub, notify: deps.notify ?? null, discussions: deps.discussions ?? [] }, onEvent)
    : null;
  try {
    const report = await executePlan(plan, {
      robots: Object.keys(config.robots),
      rollout: { ...config.rollout, canary: canaryOf(config.rollout, plan.actions) },
      parallelism: deps.parallelism ?? config.rollout.parallelism,
      // A lost lock also stops what has not started (robots of a later wave).
      stop: fence ? AbortSignal.any([signal, fence.lost]) : signal,
      ...(hard.length > 0 ? { hard: AbortSignal.any(hard) } : {}),
      ...(deps.reasons ? { reasons: deps.reasons } : {}),
      onEvent,
      effects: effectsOf(ctx, recorder, rollout),
      ...(config.rollout.onFailure === 'rollback' ? { rollback: rollbackEffects(ctx, recorder) } : {}),
      admit: (robot, sig) => checkIdentity(ctx, robot, sig),
    });
    await rollout?.finish(report, recorder);
    return { report, state: await recorder.close() };
  } catch (err) {
    await recorder.close().catch(() => {}); // store what was recorded; the first error is the one to tell
    throw err;
  }
}

/** `rollout`: told what each action did (a rollback's own actions are not the rollout's). */
function effectsOf(ctx: PerformContext, recorder: StateRecorder, rollout: Rollout | null = null): UnitEffects {
  return {
    // An install is recorded as an intent before it is sent (kill -9 leaves no orphan).
    perform: async (action, sig) => { await recorder.intent(action); return performAction(action, ctx, sig); },
    record: (action, performed) => {
      rollout?.performed(action, performed.result);
      return recorder.record(action, performed.result);
    },
    resolveConflict: async (action, sig) => {
      if (!('robot' in action)) throw new TerminalError('conflict outside a robot');
      await stopQuietly(robotDaemon(ctx, action.robot), sig);
    },
  };
}

/** What a robot runs before the rollout reaches it, and the effects that put it back (a start without the gate). */
function rollbackEffects(ctx: PerformContext, recorder: StateRecorder): RollbackEffects {
  return {
    capture: async (name, signal) => {
      const daemon = robotDaemon(ctx, name);
      const [current, status] = await Promise.all([daemon.currentAppStatus(signal), daemon.daemonStatus(signal)]);
      const runs = current !== null && (current.state === 'running' || current.state === 'starting');
      return { running: runs ? current.info.name : null, installsRevision: extensionsOf(status).install_revision === true };
    },
    effects: effectsOf({ ...ctx, healthyForMs: 0 }, recorder),
  };
}
