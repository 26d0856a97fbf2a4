import { useColor, type Io } from '../../lib/io.js';
import { UserError } from '../../lib/errors.js';
import { newCommand, parse } from '../command.js';
import { plan as makePlan } from '../../reconciler/plan.js';
import { renderPlan, summaryLine } from '../views/plan-view.js';
import { apply } from '../../reconciler/apply.js';
import { applyExitCode } from '../exit-codes.js';
import { reportWithoutRun } from '../../reconciler/report.js';
import type { Plan } from '../../reconciler/types.js';
import { acquireLock, type Lock } from '../../state/lock.js';
import { readState } from '../../state/file.js';
import { openSession, parseDuration, unreachableReasons, type Session } from '../session/session.js';
import { blindness, collect, withSessionOptions } from '../session/options.js';
import { loadSavedPlan } from '../session/saved-plan.js';
import { confirmApply } from '../session/confirm.js';
import { withInterrupts } from '../session/interrupt.js';
import { createProgress } from '../views/progress.js';
import { renderReport, reportJson } from '../views/report-view.js';

interface Options {
  file: string; yes?: boolean; plan?: string; dryRun?: boolean; target: string[]; parallelism?: string;
  state?: string; lockTimeout: string; allowEmpty?: boolean; token?: string; json?: boolean;
}

const HELP_AFTER = `
Shows the plan, asks for confirmation on a terminal (unless --yes), then
executes it: the hub and the robots in parallel, canary robots first, each
outcome printed as it happens, the state file written after every success.
Ctrl-C stops starting new actions; those in flight finish and are recorded (exit 130).
Exit codes: 0 converged, 1 an action failed, a robot was unreachable or an error, 130 interrupted.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('apply', io))
    .description('Bring the hub and every robot to what robot.yaml declares')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--plan <file>', 'apply a plan saved by `robotctl plan --out` (rejected if the world changed since)')
    .option('--dry-run', 'show what would happen, change nothing')
    .option('--target <address>', 'limit to webhooks.NAME or robots.NAME (repeatable)', collect, [])
    .option('--parallelism <n>', 'robots worked on at once (default: rollout.parallelism)')
    .option('--lock-timeout <duration>', 'how long to wait for another apply holding the state lock', '30s')
    .option('--allow-empty', 'allow a plan that deletes everything the file owns')
    .option('--json', 'print the final report as JSON (format_version); progress goes to stderr')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const parallelism = o.parallelism === undefined ? undefined : parsePositive(o.parallelism);
  const lockTimeoutMs = parseDuration(o.lockTimeout, '--lock-timeout');
  const session = await openSession(io, o);
  let lock: Lock | null = null;
  try {
    if (!o.dryRun) lock = await acquireLock(session.statePath, { timeoutMs: lockTimeoutMs, operation: 'apply' });
    // The state may have moved while we waited for the lock.
    if (lock) session.state = await readState(session.statePath);
    return await applyWith(session, o, io, parallelism);
  } finally {
    await lock?.release();
    await session.close();
  }
}

async function applyWith(session: Session, o: Options, io: Io, parallelism: number | undefined): Promise<number> {
  const out = o.json ? (t: string) => io.err(t) : (t: string) => io.out(t);
  const observed = await session.observe();
  const p: Plan = o.plan
    ? await loadSavedPlan(io, o.plan, o.file, session.config, observed)
    : makePlan(session.config, observed, session.state, { targets: o.target, allowEmpty: o.allowEmpty === true });
  const reasons = unreachableReasons(observed);
  out(renderPlan(p, { color: useColor(io) && !o.json }));
  if (p.actions.length === 0 || o.dryRun) {
    const report = reportWithoutRun(p, session.config, null, reasons);
    if (o.dryRun && p.actions.length > 0) out('\nDry run: nothing was changed.\n');
    if (o.json) io.out(reportJson(report, { dry_run: o.dryRun === true, plan_summary: p.summary }));
    else if (report.robots.some((r) => r.status === 'unreachable') || report.hub.status === 'unreachable') io.out(renderReport(report, useColor(io)));
    if (o.dryRun) return blindness(p) === null ? 0 : 1;
    return applyExitCode(report);
  }
  if (!o.yes && !o.plan) await confirmApply(io, summaryLine(p));
  const progress = createProgress(o.json ? { ...io, out: io.err, isTTY: false } : io, p.actions.length);
  out('\n');
  const result = await withInterrupts(io, (stop, hard) => apply(p, session.config, {
    hub: session.hub, daemon: session.daemon, statePath: session.statePath, state: session.state, hard,
    reasons, ...(parallelism === undefined ? {} : { parallelism }),
  }, stop, (e) => progress.onEvent(e)));
  progress.finish();
  if (o.json) io.out(reportJson(result.report, { plan_summary: p.summary }));
  else io.out(renderReport(result.report, useColor(io)));
  return applyExitCode(result.report);
}

function parsePositive(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UserError(`--parallelism: expected a whole number of robots of 1 or more, got '${text}'`);
  return n;
}
