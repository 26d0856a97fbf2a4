import type { ApplyReport } from '../reconciler/report.js';

// The exit codes of every robotctl command, in one place. Like `terraform
// plan -detailed-exitcode`: 0 nothing to do, 2 changes or drift, 1 error. A
// crash or a usage mistake never reads as drift.

/** 0 converged, 130 interrupted, 1 anything else short of converged. */
export function applyExitCode(report: ApplyReport): number {
  if (report.interrupted) return 130;
  const units = [report.hub, ...report.robots];
  const bad = units.some((u) => u.status === 'failed' || u.status === 'unreachable' || (u.status === 'skipped' && u.reason !== 'not targeted'));
  return bad ? 1 : 0;
}
