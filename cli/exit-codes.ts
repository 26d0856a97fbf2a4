import { ExitError, UsageError, UserError } from '../lib/errors.js';
import { applyOutcome, type ApplyReport } from '../reconciler/report.js';
import type { Plan } from '../reconciler/types.js';

// The exit codes of every robotctl command, in one place. Like `terraform
// plan -detailed-exitcode`: 0 nothing to do, 2 changes or drift, 1 error. A
// crash or a usage mistake never reads as drift: a usage error is 64
// (sysexits' EX_USAGE), so CI that tests for 2 never mistakes a typo for drift.

export const EXIT = {
  ok: 0,
  error: 1,
  changes: 2,
  usage: 64,
  interrupted: 130,
} as const;

/** Why a plan cannot be trusted to be complete (hub or robots not observed, a robot that is not the one robot.yaml names), or null. */
export function blindness(p: Plan): string | null {
  const parts: string[] = [];
  if (p.hubError !== null) parts.push(`the hub could not be observed (${p.hubError})`);
  if (p.unreachable.length > 0) parts.push(`robot${p.unreachable.length === 1 ? '' : 's'} ${p.unreachable.join(', ')} could not be reached`);
  for (const r of p.refused) parts.push(`robot ${r.robot} is refused: ${r.reason}`);
  return parts.length === 0 ? null : `${parts.join('; ')}: the result is incomplete`;
}

/** plan and diff: 1 when something could not be observed, else 2 for changes, held-back revisions or held deletes (drift), 0 for none. */
export function planExitCode(p: Plan): number {
  if (blindness(p) !== null) return EXIT.error;
  return p.actions.length > 0 || p.heldBack.length > 0 || p.heldDeletes.length > 0 ? EXIT.changes : EXIT.ok;
}

/** apply --dry-run: nothing ran, so only blindness is an error. */
export function dryRunExitCode(p: Plan): number {
  return blindness(p) === null ? EXIT.ok : EXIT.error;
}

/** apply: 0 converged, 130 interrupted, 1 anything else short of converged (the summary line says the same). */
export function applyExitCode(report: ApplyReport): number {
  const outcome = applyOutcome(report);
  if (outcome === 'interrupted') return EXIT.interrupted;
  return outcome === 'complete' ? EXIT.ok : EXIT.error;
}

/** validate: 0 valid, 1 invalid. */
export function validateExitCode(valid: boolean): number {
  return valid ? EXIT.ok : EXIT.error;
}

/** The top-level catch's rule: what an error thrown out of a command exits with. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof ExitError) return err.exitCode;
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof UserError) return err.exitCode;
  return EXIT.error;
}
