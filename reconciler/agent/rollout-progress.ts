import type { Config } from '../../schema/types.js';
import type { Plan } from '../types.js';
import type { ApplyEvent } from '../apply.js';
import type { UnitStatus } from '../report.js';
import { failureLimit } from '../execute/fleet.js';

// The apply in progress as the fleet page draws it: the robots that have
// something to do, wave by wave (the canary robots of the file first), each
// with its actions done of its total, and the failed robots counted against
// rollout.max_failures. Fed by the executor's events; no clock, no I/O.

export type RolloutRobotState = 'pending' | 'running' | 'ok' | 'failed' | 'skipped';

export interface RolloutRobot {
  name: string;
  state: RolloutRobotState;
  done: number;
  total: number;
}

export interface RolloutWave {
  name: 'canary' | 'rest';
  robots: RolloutRobot[];
}

export interface RolloutStatus {
  result: 'running' | 'converged' | 'drift' | 'failed';
  failures: number;
  max_failures: number;
  halted: boolean;
  waves: RolloutWave[];
}

const FINISHED: Record<UnitStatus, RolloutRobotState> = {
  converged: 'ok', already_converged: 'ok', failed: 'failed', unreachable: 'failed', skipped: 'skipped',
};

export class RolloutProgress {
  private readonly robots = new Map<string, RolloutRobot>();
  private readonly canary: Set<string>;
  private readonly order: string[];
  private readonly limit: number;
  private failures = 0;
  private halted = false;
  private result: RolloutStatus['result'] = 'running';

  constructor(plan: Pick<Plan, 'actions'>, config: Pick<Config, 'robots' | 'rollout'>) {
    const all = Object.keys(config.robots);
    for (const a of plan.actions) {
      if (!('robot' in a)) continue;
      const r = this.robots.get(a.robot) ?? { name: a.robot, state: 'pending', done: 0, total: 0 };
      r.total += 1;
      this.robots.set(a.robot, r);
    }
    this.order = all.filter((n) => this.robots.has(n));
    this.canary = new Set(all.slice(0, Math.max(0, config.rollout.canary)));
    this.limit = failureLimit(config.rollout.maxFailures, all.length);
  }

  onEvent = (e: ApplyEvent): void => {
    if (e.type === 'rollout.halted') {
      this.halted = true;
      return;
    }
    if (e.type === 'robot.finished') {
      const r = this.robots.get(e.report.name);
      if (!r) return;
      r.state = FINISHED[e.report.status];
      if (r.state === 'failed') this.failures += 1;
      return;
    }
    if (!('robot' in e.action)) return;
    const r = this.robots.get(e.action.robot);
    if (!r) return;
    if (e.type === 'action.started' && r.state === 'pending') r.state = 'running';
    if (e.type === 'action.done') r.done = Math.min(r.total, r.done + 1);
  };

  finish(result: Exclude<RolloutStatus['result'], 'running'>): void {
    this.result = result;
  }

  snapshot(): RolloutStatus {
    const pick = (canary: boolean): RolloutRobot[] => this.order.filter((n) => this.canary.has(n) === canary).map((n) => ({ ...(this.robots.get(n) as RolloutRobot) }));
    const waves: RolloutWave[] = [];
    const first = pick(true);
    const rest = pick(false);
    if (first.length > 0) waves.push({ name: 'canary', robots: first });
    if (rest.length > 0) waves.push({ name: 'rest', robots: rest });
    return { result: this.result, failures: this.failures, max_failures: this.limit, halted: this.halted, waves };
  }
}
