import type { ActionResult } from './status-types.js';
import { isAppAction, robotActionText, type Action, type Plan } from '../types.js';
import type { ApplyEvent } from '../apply.js';
import type { ApplyReport } from '../report.js';
import { StillRunning, elapsedText, type Ticker } from '../../lib/still-running.js';
import { appWithRevisions } from '../revisions.js';
import { suggested, type CommandLine } from '../../lib/command-line.js';

// Turns the executor's events into the per-action results of a run (for
// GET /status) and into one log line each (for stdout). Lines name the
// resource and the verb, never a secret: actions carry none.

export class RunLog {
  readonly results: ActionResult[] = [];
  private readonly still: StillRunning;

  constructor(private readonly log: (line: string) => void, ticker?: Ticker) {
    this.still = new StillRunning((what, ms) => this.log(`  running ${what}... ${elapsedText(ms)}`), undefined, ticker);
  }

  /** Actions already reported: an outcome is logged once even if the executor says it twice. */
  private readonly ended = new Set<Action>();

  onEvent = (e: ApplyEvent): void => {
    if (e.type === 'action.done' || e.type === 'action.failed') {
      this.still.end(e.unit);
      if (this.ended.has(e.action)) return;
      this.ended.add(e.action);
    }
    switch (e.type) {
      case 'action.started':
        this.log(`  running ${label(e.action)}...`);
        this.still.begin(e.unit, label(e.action));
        break;
      case 'action.done':
        this.results.push(result(e.action, 'ok', null, e.ms));
        this.log(`  done    ${label(e.action)} (${e.ms} ms)${e.performed.detail ? ` ${e.performed.detail}` : ''}`);
        break;
      case 'action.failed':
        this.results.push(result(e.action, 'failed', e.error, e.ms));
        this.log(`  failed  ${label(e.action)}: ${e.error}`);
        // The robot's own words, a line each (pip's ERROR lines, the app's exception: issue 30.1/30.2).
        for (const why of e.reason ?? []) this.log(`          ${why}`);
        break;
      case 'action.retrying':
        this.log(`  retry   ${label(e.action)} in ${e.delayMs} ms (attempt ${e.attempt}): ${e.error}`);
        break;
      case 'rollout.halted':
        this.log(`  rollout stopped: ${e.halt.failures} failed robot(s), max_failures allows ${e.halt.limit}`);
        break;
      case 'rollout.started':
        this.log(`  rollout ${e.id}`);
        break;
      case 'rollout.wave':
        this.log(`  wave ${e.wave}: ${e.robots.join(', ')}`);
        break;
      case 'robot.rolling_back':
        this.log(`  rolling back ${e.robot}${e.actions.length > 0 ? `: ${e.actions.map(label).join(', ')}` : ''}`);
        break;
      case 'robot.finished':
        if (e.report.status === 'rolled_back') this.log(`  rolled back ${e.report.name}: ${e.report.reason ?? ''}`);
        break;
      case 'rollout.recorded':
        this.log(`  rollout ${e.record.id}: ${e.record.outcome.replace('_', ' ')}`);
        break;
      case 'rollout.notified':
        this.log(e.error === null ? `  notified: ${e.target}` : `  notification failed (the rollout is not affected): ${e.target}: ${e.error}`);
        break;
      default:
        break;
    }
  };

  /** The run is over: no more elapsed-time lines. */
  close(): void {
    this.still.close();
  }

  /** Planned actions that never ran (after a failure, a halt, or a stop). */
  addNotDone(report: ApplyReport): void {
    for (const unit of [report.hub, ...report.robots]) {
      for (const a of unit.notDone) {
        if (this.results.some((r) => r.address === a.address && r.kind === a.type)) continue;
        this.results.push(result(a, 'skipped', unit.reason, 0));
      }
    }
  }

  /** Warn mode: what a heal would do, listed as skipped. */
  addPlanned(plan: Plan): void {
    for (const a of plan.actions) {
      this.results.push(result(a, 'skipped', null, 0));
      this.log(`  drift   ${label(a)} (${a.reason})`);
    }
  }

  /** Deletes the planner held back: reported on every run, never forced (only `apply --force` does them). */
  addHeld(plan: Plan, command?: CommandLine): void {
    for (const h of plan.heldDeletes) this.log(`  held    delete ${h.address} (id ${h.id}): ${h.reason}; not deleted (${suggested(command, 'apply --force')} deletes it)`);
  }

  get failed(): boolean {
    return this.results.some((r) => r.outcome === 'failed');
  }
}

export function label(a: Action): string {
  return 'robot' in a ? `${isAppAction(a) ? `${a.type} ${appWithRevisions(a)}` : robotActionText(a)} on ${a.robot}` : `${a.type} ${a.address}`;
}

function result(a: Action, outcome: ActionResult['outcome'], error: string | null, ms: number): ActionResult {
  return { address: a.address, kind: a.type, outcome, error, durationMs: ms };
}
