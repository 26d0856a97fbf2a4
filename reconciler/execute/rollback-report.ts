import type { Halt, UnitReport } from '../report.js';
import type { UnitOutput } from './machine.js';
import type { RollbackPlan } from './rollback.js';
import { describe } from '../report.js';

// A robot's report once its wave was rolled back: `rolled_back` with what was
// put back and what could not be (its failure, if it had one, first), or
// `failed` when the rollback itself failed.

export function rolledBack(report: UnitReport, halt: Halt, out: UnitOutput | null, back: RollbackPlan): UnitReport {
  const why = report.status === 'failed' ? report.reason ?? 'failed' : `its wave failed (${halt.failures} failed robot(s), max_failures allows ${halt.limit})`;
  const failed = out?.failed[0];
  const summary = { restored: back.restores, notRestored: back.notRestored, error: failed ? `${describe(failed.action)}: ${failed.error}` : null };
  if (failed || out?.status === 'stopped') {
    const error = failed ? summary.error : 'interrupted';
    return { ...report, status: 'failed', reason: `${why}; the rollback failed: ${error}`, rollback: { ...summary, error } };
  }
  const parts = [back.restores.length > 0 ? `rolled back: ${back.restores.join(', ')}` : 'rolled back: nothing to put back'];
  if (back.notRestored.length > 0) parts.push(`not restored: ${back.notRestored.join(', ')}`);
  return { ...report, status: 'rolled_back', reason: `${why}; ${parts.join('; ')}`, rollback: summary };
}
