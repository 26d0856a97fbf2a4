import type { ApplyReport, UnitReport, UnitStatus } from '../../reconciler/report.js';
import type { Action } from '../../reconciler/types.js';
import { palette, table, type Palette } from './format.js';

// The end of an apply: a status per robot (and the hub) and a summary, as
// text or as JSON (format_version). Actions appear by address and type only.

export const REPORT_FORMAT_VERSION = '1.0';

const LABEL: Record<UnitStatus, string> = {
  converged: 'converged', already_converged: 'already converged', failed: 'failed', unreachable: 'unreachable', skipped: 'skipped',
};

export function renderReport(report: ApplyReport, color: boolean): string {
  const p = palette(color);
  const units = [report.hub, ...report.robots];
  const rows = units.map((u) => [u.name === 'hub' ? 'hub (webhooks)' : u.name, paintStatus(u.status, p), detail(u)]);
  const lines = ['', table(['UNIT', 'STATUS', 'DETAIL'], rows), ''];
  const notDone = units.flatMap((u) => u.notDone.map((a) => ({ a, why: u.reason ?? u.status })));
  if (notDone.length > 0) {
    lines.push(report.interrupted ? 'Interrupted: these actions were not done (run apply again to finish):' : 'Not done:');
    for (const { a, why } of notDone) lines.push(`  ${a.address}: ${a.type} ${p.dim(`(${why})`)}`);
    lines.push('');
  }
  lines.push(summary(report, p));
  return `${lines.join('\n')}\n`;
}

export function summary(report: ApplyReport, p: Palette = palette(false)): string {
  const t = report.totals;
  const head = report.interrupted ? p.warn('Apply interrupted') : t.failed > 0 ? p.bad('Apply finished with failures') : p.ok('Apply complete');
  return `${head}: ${t.done} action(s) done, ${t.failed} failed, ${t.notDone} not done.`;
}

function paintStatus(s: UnitStatus, p: Palette): string {
  const text = LABEL[s];
  if (s === 'converged' || s === 'already_converged') return p.ok(text);
  if (s === 'failed' || s === 'unreachable') return p.bad(text);
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
    failed: u.failed.map((f) => ({ ...actionRef(f.action), error: f.error })),
    not_done: u.notDone.map(actionRef),
  });
  const doc = {
    format_version: REPORT_FORMAT_VERSION,
    ...extra,
    interrupted: report.interrupted,
    halt: report.halt,
    totals: { planned: report.totals.planned, done: report.totals.done, failed: report.totals.failed, not_done: report.totals.notDone },
    hub: unit(report.hub),
    robots: report.robots.map(unit),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

function actionRef(a: Action): { address: string; type: string } {
  return { address: a.address, type: a.type };
}
