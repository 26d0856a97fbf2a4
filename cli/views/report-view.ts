import { applyOutcome, refusedUnits, unreachableUnits, type ApplyReport, type UnitReport, type UnitStatus } from '../../reconciler/report.js';
import type { Action } from '../../reconciler/types.js';
import { palette, type Palette } from './format.js';
import { formatTable } from './table.js';

// The end of an apply: a status per robot (and the hub) and a summary, as
// text or as JSON (format_version). Actions appear by address and type only.

/**
 * 1.1: `outcome` added (complete, failed, incomplete, interrupted). 1.2: status `rolled_back`, a robot's `rollback`, `rollout`.
 * 1.3: a failed action the robot explained has `reason` (its words, at most five lines) and `log_tail` (20 lines).
 * 1.4: the plan's `held_deletes` (deletes held back: changed outside robotctl).
 */
export const REPORT_FORMAT_VERSION = '1.4';

const LABEL: Record<UnitStatus, string> = {
  converged: 'converged', already_converged: 'already converged', failed: 'failed', rolled_back: 'rolled back', unreachable: 'unreachable', refused: 'refused', skipped: 'skipped',
};

export function renderReport(report: ApplyReport, color: boolean): string {
  const p = palette(color);
  const units = [report.hub, ...report.robots];
  const rows = units.map((u) => [u.name === 'hub' ? 'hub (webhooks)' : u.name, paintStatus(u.status, p), detail(u)]);
  const lines = ['', formatTable(['UNIT', 'STATUS', 'DETAIL'], rows).text, ''];
  const explained = units.flatMap((u) => u.failed.filter((f) => f.reason && f.reason.length > 0));
  if (explained.length > 0) {
    // The robot's own words (issue 30.1/30.2): pip's ERROR lines, the app's exception.
    lines.push('Why, in the robot\'s words:');
    for (const f of explained) {
      lines.push(`  ${f.action.address}: ${f.action.type}`);
      for (const r of f.reason ?? []) lines.push(`    ${p.bad(r)}`);
    }
    lines.push('');
  }
  const notDone = units.flatMap((u) => u.notDone.map((a) => ({ a, why: u.reason ?? u.status })));
  if (notDone.length > 0) {
    lines.push(report.interrupted ? 'Interrupted: these actions were not done (run apply again to finish):' : 'Not done:');
    for (const { a, why } of notDone) lines.push(`  ${a.address}: ${a.type} ${p.dim(`(${why})`)}`);
    lines.push('');
  }
  lines.push(summary(report, p));
  return `${lines.join('\n')}\n`;
}

/** One line that never reads as success unless every unit converged (the exit code follows the same outcome). */
export function summary(report: ApplyReport, p: Palette = palette(false)): string {
  const t = report.totals;
  const counts = `${t.done} action(s) done, ${t.failed} failed, ${t.notDone} not done`;
  switch (applyOutcome(report)) {
    case 'interrupted': return `${p.warn('Apply interrupted')}: ${counts}.`;
    case 'failed': return `${p.bad('Apply finished with failures')}: ${counts}.`;
    case 'incomplete': {
      const away = unreachableUnits(report);
      const refused = refusedUnits(report);
      const why = [
        ...(away.length > 0 ? [`not reached: ${away.join(', ')}`] : []),
        ...(refused.length > 0 ? [`refused (not the robot robot.yaml names): ${refused.join(', ')}`] : []),
      ].join('; ') || 'some robots were skipped';
      const next = away.length > 0 ? ' Run apply again once they can be reached.' : refused.length > 0 ? ' Check their hardware_id in robot.yaml.' : ' Run apply again once they can be reached.';
      return `${p.bad('Apply incomplete')}: ${counts}; ${why}.${next}`;
    }
    case 'complete': return `${p.ok('Apply complete')}: ${counts}.`;
  }
}

function paintStatus(s: UnitStatus, p: Palette): string {
  const text = LABEL[s];
  if (s === 'converged' || s === 'already_converged') return p.ok(text);
  if (s === 'failed' || s === 'unreachable' || s === 'rolled_back' || s === 'refused') return p.bad(text);
  return p.warn(text);
}

function detail(u: UnitReport): string {
  if (u.reason) return u.reason;
  if (u.status === 'converged') return `${u.done} action${u.done === 1 ? '' : 's'}`;
  return '';
}

export function reportJson(report: ApplyReport, extra: Record<string, unknown> = {}): string {
  const unit = (u: UnitReport) => ({
    name: u.name, status: u.status, reason: u.reason, planned: u.planned, done: u.done,
    failed: u.failed.map((f) => ({ ...actionRef(f.action), error: f.error, ...(f.reason ? { reason: f.reason, log_tail: f.logTail ?? [] } : {}) })),
    not_done: u.notDone.map(actionRef),
    ...(u.rollback ? { rollback: { restored: u.rollback.restored, not_restored: u.rollback.notRestored, error: u.rollback.error } } : {}),
  });
  const doc = {
    format_version: REPORT_FORMAT_VERSION,
    ...extra,
    outcome: applyOutcome(report),
    interrupted: report.interrupted,
    halt: report.halt,
    waves: report.waves,
    totals: { planned: report.totals.planned, done: report.totals.done, failed: report.totals.failed, not_done: report.totals.notDone },
    hub: unit(report.hub),
    robots: report.robots.map(unit),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function actionRef(a: Action): { address: string; type: string } {
  return { address: a.address, type: a.type };
}
