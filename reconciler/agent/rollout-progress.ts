import type { Config } from '../../schema/types.js';
import { robotActionText, type Action, type Plan } from '../types.js';
import type { ApplyEvent } from '../apply.js';
import type { UnitStatus } from '../report.js';
import { canaryOf, failureLimit, waves } from '../execute/fleet.js';

// The apply in progress as the fleet page draws it: the robots that have
// something to do, wave by wave (the canary robots of the file first, then
// `parallelism` at a time), each with its actions done of its total, what it
// is doing now (`reinstalling`, `starting`, `checking health` with how far
// its health gate got, `rolling back`; the action in words and the last
// lines its job logged, for a daemon update), and the failed robots counted
// against rollout.max_failures. Fed by the executor's events; no clock, no I/O.

export type RolloutRobotState = 'pending' | 'running' | 'ok' | 'failed' | 'rolled_back' | 'skipped';

export type RolloutPhase = 'updating_daemon' | 'renaming' | 'installing' | 'reinstalling' | 'removing' | 'stopping' | 'starting' | 'checking_health' | 'rolling_back';

export interface RolloutRobot {
  name: string;
  state: RolloutRobotState;
  done: number;
  total: number;
  /** What it is doing now; null when pending or finished. */
  phase: RolloutPhase | null;
  /** While its health gate runs: how long its app has run healthy, of how long it must. */
  health: { healthy_ms: number; healthy_for_ms: number } | null;
  /** The action it runs now, in words (`update daemon 1.9.0 → 1.10.0`); absent when none. */
  step?: string;
  /** The last lines its job logged (a daemon update's), newest last; absent when none. */
  log?: string[];
}

/** Lines of a job's log the page shows per robot. */
export const LOG_TAIL_LINES = 4;

export interface RolloutWave {
  name: 'canary' | 'rest';
  robots: RolloutRobot[];
}

export interface RolloutStatus {
  /** The rollout's id (as in `robotctl rollout history`); null for an apply without robot actions. */
  id: string | null;
  result: 'running' | 'converged' | 'drift' | 'failed';
  failures: number;
  max_failures: number;
  halted: boolean;
  waves: RolloutWave[];
}

const FINISHED: Record<UnitStatus, RolloutRobotState> = {
  converged: 'ok', already_converged: 'ok', failed: 'failed', rolled_back: 'rolled_back', unreachable: 'failed', refused: 'skipped', skipped: 'skipped',
};

const PHASE: Record<Action['type'], RolloutPhase | null> = {
  update_daemon: 'updating_daemon', rename_robot: 'renaming',
  install: 'installing', update_app: 'reinstalling', adopt_app: null, remove: 'removing', stop: 'stopping', start: 'starting', startup_app: null,
  create: null, adopt: null, update: null, enable: null, disable: null, delete: null,
};

export class RolloutProgress {
  private readonly robots = new Map<string, RolloutRobot>();
  private readonly waves: { name: RolloutWave['name']; robots: string[] }[];
  private readonly limit: number;
  private id: string | null = null;
  private failures = 0;
  private halted = false;
  private result: RolloutStatus['result'] = 'running';

  constructor(plan: Pick<Plan, 'actions'> & Partial<Pick<Plan, 'unreachable'>>, config: Pick<Config, 'robots' | 'rollout'>) {
    const all = Object.keys(config.robots);
    for (const a of plan.actions) {
      if (!('robot' in a)) continue;
      const r = this.robots.get(a.robot) ?? { name: a.robot, state: 'pending', done: 0, total: 0, phase: null, health: null };
      r.total += 1;
      this.robots.set(a.robot, r);
    }
    const busy = new Set(all.filter((n) => this.robots.has(n) && !(plan.unreachable ?? []).includes(n)));
    const size = canaryOf(config.rollout, plan.actions);
    const canary = new Set(all.slice(0, Math.max(0, size)));
    this.waves = waves(all, busy, size, config.rollout.parallelism)
      .map((robots) => ({ name: robots.every((n) => canary.has(n)) ? 'canary' : 'rest', robots }));
    // Robots the executor reports without running (unreachable): after the waves.
    const placed = new Set(this.waves.flatMap((w) => w.robots));
    const others = all.filter((n) => this.robots.has(n) && !placed.has(n));
    if (others.length > 0) this.waves.push({ name: 'rest', robots: others });
    this.limit = failureLimit(config.rollout.maxFailures, all.length);
  }

  onEvent = (e: ApplyEvent): void => {
    switch (e.type) {
      case 'rollout.started': this.id = e.id; return;
      case 'rollout.halted': this.halted = true; return;
      case 'robot.finished': {
        const r = this.robots.get(e.report.name);
        if (!r) return;
        Object.assign(r, { state: FINISHED[e.report.status], phase: null, health: null });
        delete r.step;
        // A robot rolled back only because its wave failed did not fail itself.
        if (r.state === 'failed' || (r.state === 'rolled_back' && e.report.failed.length > 0)) this.failures += 1;
        return;
      }
      case 'robot.gate': {
        const r = this.robots.get(e.robot);
        if (r) Object.assign(r, { phase: 'checking_health', health: { healthy_ms: e.healthyMs, healthy_for_ms: e.healthyForMs } });
        return;
      }
      case 'robot.rolling_back': {
        const r = this.robots.get(e.robot);
        if (r) Object.assign(r, { phase: 'rolling_back', health: null });
        return;
      }
      case 'action.started':
      case 'action.done': {
        if (!('robot' in e.action)) return;
        const r = this.robots.get(e.action.robot);
        if (!r || r.phase === 'rolling_back') return;
        if (e.type === 'action.started') Object.assign(r, { state: 'running', phase: PHASE[e.action.type], health: null, step: robotActionText(e.action) });
        else r.done = Math.min(r.total, r.done + 1);
        return;
      }
      case 'action.log': {
        const r = 'robot' in e.action ? this.robots.get(e.action.robot) : undefined;
        if (r) r.log = [...(r.log ?? []), e.line].slice(-LOG_TAIL_LINES);
        return;
      }
      default:
        return;
    }
  };

  finish(result: Exclude<RolloutStatus['result'], 'running'>): void {
    this.result = result;
  }

  snapshot(): RolloutStatus {
    const waves = this.waves.map((w) => ({ name: w.name, robots: w.robots.map((n) => ({ ...(this.robots.get(n) as RolloutRobot) })) }));
    return { id: this.id, result: this.result, failures: this.failures, max_failures: this.limit, halted: this.halted, waves };
  }
}
