import { useColor, type Io } from '../../lib/io.js';
import type { ApplyReport } from '../../reconciler/report.js';
import type { Plan } from '../../reconciler/types.js';
import { writePlan } from './plan-view.js';
import { createProgress, type Progress } from './progress.js';
import { renderReport, reportJson } from './report-view.js';
import type { ViewType } from './view-type.js';
import { commandLine } from './command-line.js';

// `robotctl apply`: the plan, the question, progress and the final report.
// Human: all on stdout. JSON: stdout carries only the report document; the
// plan and the progress lines go to stderr for the person watching.

export interface ApplyView {
  plan(p: Plan): void;
  /** Text around the confirmation question (human: stdout; JSON: stderr). */
  say(text: string): void;
  /** Nothing ran (no actions, or --dry-run). */
  idle(p: Plan, report: ApplyReport, dryRun: boolean): void;
  progress(total: number): Progress;
  report(p: Plan, report: ApplyReport): void;
}

export function newApplyView(type: ViewType, io: Io): ApplyView {
  return type === 'json' ? jsonView(io) : humanView(io);
}

const DRY_RUN = '\nDry run: nothing was changed.\n';

function humanView(io: Io): ApplyView {
  const color = useColor(io);
  return {
    plan: (p) => writePlan(p, { color, command: commandLine(io) }, (text) => io.out(text)),
    say: (text) => io.out(text),
    idle: (p, report, dryRun) => {
      if (dryRun && p.actions.length > 0) io.out(DRY_RUN);
      const away = report.hub.status === 'unreachable' || report.robots.some((r) => r.status === 'unreachable');
      if (away) io.out(renderReport(report, color));
    },
    progress: (total) => {
      io.out('\n');
      return createProgress(io, total);
    },
    report: (_p, report) => io.out(renderReport(report, color)),
  };
}

function jsonView(io: Io): ApplyView {
  return {
    plan: (p) => writePlan(p, { command: commandLine(io) }, (text) => io.err(text)),
    say: (text) => io.err(text),
    idle: (p, report, dryRun) => {
      if (dryRun && p.actions.length > 0) io.err(DRY_RUN);
      io.out(reportJson(report, { dry_run: dryRun, plan_summary: p.summary, held_deletes: p.heldDeletes }));
    },
    progress: (total) => {
      io.err('\n');
      return createProgress({ ...io, out: io.err, isTTY: false }, total);
    },
    report: (p, report) => io.out(reportJson(report, { plan_summary: p.summary, held_deletes: p.heldDeletes })),
  };
}
