import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import { newState } from '../../state/file.js';
import type { HeldLock, StateStore } from '../../state/store.js';
import type { RunResult, RunSummary } from './status-types.js';
import { errorMessage } from '../../lib/errors.js';
import { observe, type ObserveDeps } from '../observe.js';
import { plan } from '../plan.js';
import { apply, type ApplyDeps, type ApplyEvent } from '../apply.js';
import type { Observation, Plan, PlanOptions } from '../types.js';
import { appOfKey, type ExpectedSha, type WorkItem } from './work-item.js';
import { RunLog } from './run-log.js';
import { fenceOf } from '../execute/fence.js';
import type { NotifySender } from '../../drivers/notify/webhook.js';
import type { CommandLine } from '../../lib/command-line.js';

// One run of the agent for one work key: take the state lock, re-read the
// state, observe, plan, and in heal mode apply and observe again to see
// what is left. Everything is decided from what was just read (level-based):
// the key only narrows which robots the run may touch.

/** The drivers observe needs (hub, daemon clients by address, mDNS), and whether to list webhooks. */
export interface AgentDrivers extends ObserveDeps {
  /** False when neither the file nor the state has a webhook and there is no token. */
  listWebhooks: boolean;
  /** The notify webhook's sender (robot.yaml notify.webhook); absent: no POSTs. */
  notify?: NotifySender;
}

export type ApplyTuning = Pick<ApplyDeps, 'healthyForMs'>;

export interface RunContext {
  config: Config;
  store: StateStore;
  mode: 'heal' | 'warn';
  drivers: AgentDrivers;
  /** The polite stop: the action in flight finishes, nothing new starts. */
  stop: AbortSignal;
  /** The hard stop: the action in flight is aborted too. */
  hard?: AbortSignal;
  lockTimeoutMs: number;
  /** The agent's leader lock: the run writes under it too, and gives up once it is lost. */
  leader?: HeldLock | null;
  tuning?: ApplyTuning;
  log: (line: string) => void;
  /** Called once the run has observed, before it acts: the drift as found (for GET /status while healing). */
  onObserved?: (observation: Observation, drift: Plan, state: StateFile) => void;
  /** An apply of `plan` starts; the listener returned gets its events (the fleet page's rollout progress). */
  onApply?: (plan: Plan) => (e: ApplyEvent) => void;
  /** How long to wait for the hub to show a revision a delivery announced (default 3 s). */
  expectTimeoutMs?: number;
  /** How the agent's user runs robotctl, for the commands its messages suggest (the CLI's view gives it). */
  command?: CommandLine;
}

export interface RunOutcome {
  summary: RunSummary;
  /** The latest observation (after the apply, if any); null when the run failed before observing. */
  observation: Observation | null;
  /** Everything still to do after the run (all robots, no target): the drift. */
  remaining: Plan | null;
  state: StateFile | null;
}

export async function reconcileOnce(item: WorkItem, ctx: RunContext): Promise<RunOutcome> {
  const startedAt = new Date().toISOString();
  const runLog = new RunLog(ctx.log);
  const finish = (result: RunResult, rest: Found): RunOutcome => ({
    summary: { trigger: item.trigger, startedAt, finishedAt: new Date().toISOString(), result, actions: runLog.results },
    ...rest,
  });
  const app = appOfKey(item.key);
  if (app !== null && robotsWithApp(ctx.config, app).length === 0) {
    ctx.log(`  no robot of robot.yaml has ${app}: nothing to do`);
    return finish('converged', { observation: null, remaining: null, state: null });
  }
  let found: Found = { observation: null, remaining: null, state: null };
  let lock: HeldLock | null = null;
  try {
    // A leader paused past its lease writes nothing, not even the state lock (also while it waits for it).
    const leader = ctx.leader ? fenceOf([ctx.leader]) : null;
    lock = await ctx.store.lock({
      timeoutMs: ctx.lockTimeoutMs, operation: 'agent', signal: leader ? AbortSignal.any([ctx.stop, leader.lost]) : ctx.stop, onNote: ctx.log, ...withCommand(ctx),
      ...(leader ? { mayWrite: () => leader.check('take the state lock') } : {}),
    });
    const locks = ctx.leader ? [ctx.leader, lock] : [lock];
    const done = await converge(item, ctx, runLog, locks, (f) => { found = f; });
    return finish(done.result, done);
  } catch (err) {
    const gaveUp = ctx.leader && (ctx.leader.lost.aborted || ctx.leader.safeUntil() <= Date.now());
    ctx.log(gaveUp ? '  run given up: this agent lost leadership; nothing more is sent' : `  run failed: ${errorMessage(err)}`);
    return finish('failed', { ...found, remaining: null });
  } finally {
    runLog.close();
    await lock?.release().catch(() => {});
  }
}

type Found = Omit<RunOutcome, 'summary'>;

/** Under the lock: read, observe, plan; in heal mode apply, then look again for what is left. */
async function converge(item: WorkItem, ctx: RunContext, runLog: RunLog, locks: HeldLock[], seen: (f: Found) => void): Promise<Found & { result: RunResult }> {
  let state = (await ctx.store.read()) ?? newState();
  let observation = await observeExpecting(ctx, item.expect);
  seen({ observation, remaining: null, state });
  const first = plan(ctx.config, observation, state, { ...planOptions(item, ctx.config), ...withCommand(ctx) });
  const before = first.targets.length === 0 ? first : plan(ctx.config, observation, state, withCommand(ctx));
  ctx.onObserved?.(observation, before, state);
  runLog.addHeld(before, ctx.command);
  if (ctx.mode === 'warn' || first.actions.length === 0) {
    if (ctx.mode === 'warn') runLog.addPlanned(before);
    return { result: verdict(before, false), observation, remaining: before, state };
  }
  ctx.log(`  ${first.actions.length} action(s) to do`);
  const progress = ctx.onApply?.(first);
  const applied = await apply(first, ctx.config, {
    hub: ctx.drivers.hub, daemon: ctx.drivers.daemon, store: ctx.store, state, locks, ...ctx.tuning,
    trigger: item.trigger, notify: ctx.drivers.notify ?? null, discussions: item.discussions ?? [],
    ...(ctx.hard ? { hard: ctx.hard } : {}),
  }, ctx.stop, (e) => { runLog.onEvent(e); progress?.(e); });
  runLog.addNotDone(applied.report);
  state = applied.state;
  seen({ observation, remaining: null, state });
  observation = await observe(ctx.config, ctx.drivers, undefined, { listWebhooks: ctx.drivers.listWebhooks, daemonStatus: true, ...withCommand(ctx) });
  const remaining = plan(ctx.config, observation, state, withCommand(ctx));
  return { result: verdict(remaining, runLog.failed), observation, remaining, state };
}

/** The options that carry the context's command writer, when it has one. */
function withCommand(ctx: RunContext): { command?: CommandLine } {
  return ctx.command ? { command: ctx.command } : {};
}

function verdict(remaining: Plan, failed: boolean): RunResult {
  if (failed) return 'failed';
  const blind = remaining.hubError !== null || remaining.unreachable.length > 0 || remaining.refused.length > 0;
  return remaining.actions.length > 0 || remaining.heldBack.length > 0 || remaining.heldDeletes.length > 0 || blind ? 'drift' : 'converged';
}

/** Which robots a key may touch, and which apps it must reinstall. */
export function planOptions(item: WorkItem, config: Config): PlanOptions {
  const app = appOfKey(item.key);
  if (app === null) return {};
  const targets = robotsWithApp(config, app).map((r) => `robots.${r}`);
  return item.key.startsWith('local:') ? { targets, forceUpdate: [app] } : { targets };
}

export function robotsWithApp(config: Config, app: string): string[] {
  return Object.values(config.robots).filter((r) => r.apps.includes(app)).map((r) => r.name);
}

// The agent reads each daemon's status and startup app too (2 calls per robot
// more than a drift check needs): the fleet page shows every robot's daemon
// version, name, hardware id and startup app.

/** Observe; when a delivery announced a Space revision the hub does not show yet, look again briefly. */
async function observeExpecting(ctx: RunContext, expect: ExpectedSha[]): Promise<Observation> {
  const deadline = Date.now() + (ctx.expectTimeoutMs ?? 3000);
  for (;;) {
    const obs = await observe(ctx.config, ctx.drivers, undefined, { listWebhooks: ctx.drivers.listWebhooks, daemonStatus: true, ...withCommand(ctx) });
    const behind = expect.filter((e) => e.spaceId in obs.spaces && obs.spaces[e.spaceId]?.sha !== e.sha);
    if (behind.length === 0 || Date.now() > deadline || ctx.stop.aborted) return obs;
    await new Promise((r) => setTimeout(r, 200));
  }
}
