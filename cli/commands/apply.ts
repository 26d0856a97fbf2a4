import type { Io } from '../../lib/io.js';
import { UsageError } from '../../lib/errors.js';
import { newCommand, parse } from '../command.js';
import { plan as makePlan } from '../../reconciler/plan.js';
import { apply } from '../../reconciler/apply.js';
import { applyExitCode, dryRunExitCode } from '../exit-codes.js';
import { reportWithoutRun } from '../../reconciler/report.js';
import type { Plan } from '../../reconciler/types.js';
import type { HeldLock } from '../../state/store.js';
import { newState } from '../../state/file.js';
import { noteTo } from '../session/state.js';
import { openSession, parseDuration, unreachableReasons, type Session } from '../session/session.js';
import { collect, withSessionOptions, type SessionFlags } from '../session/options.js';
import { loadSavedPlan } from '../session/saved-plan.js';
import { confirmApply } from '../session/confirm.js';
import { withInterrupts } from '../session/interrupt.js';
import { newApplyView } from '../views/apply-view.js';
import { viewType } from '../views/view-type.js';
import { commandLine } from '../views/command-line.js';

interface Options extends SessionFlags {
  yes?: boolean; plan?: string; dryRun?: boolean; target: string[]; parallelism?: string;
  lockTimeout: string; allowEmpty?: boolean; json?: boolean; force?: boolean;
}

const HELP_AFTER = `
Shows the plan, asks for confirmation on a terminal (unless --yes), then
executes it: the hub and the robots in parallel, canary robots first, each
outcome printed and each success recorded in the state as it happens.
Ctrl-C stops starting new actions; those in flight finish and are recorded (exit 130).
A webhook robot.yaml dropped is deleted only while the hub shows it as the
state recorded it; one changed outside robotctl is reported, and deleted
only with --force.
Exit codes: 0 converged, 1 an action failed, the hub or a robot was unreachable, or an error;
64 usage error; 130 interrupted.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('apply', io))
    .description('Bring the hub and every robot to what robot.yaml declares')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--plan <file>', 'apply a plan saved by `plan --out` (rejected if the world changed since)')
    .option('--dry-run', 'show what would happen, change nothing')
    .option('--target <address>', 'limit to webhooks.NAME or robots.NAME (repeatable)', collect, [])
    .option('--parallelism <n>', 'robots worked on at once (default: rollout.parallelism)')
    .option('--lock-timeout <duration>', 'how long to wait for another apply holding the state lock', '30s')
    .option('--allow-empty', 'allow a plan that deletes everything the file owns')
    .option('--force', 'also delete webhooks that changed outside robotctl since the state recorded them')
    .option('--json', 'print the final report as JSON (format_version); progress goes to stderr')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const parallelism = o.parallelism === undefined ? undefined : parsePositive(o.parallelism);
  const lockTimeoutMs = parseDuration(o.lockTimeout, '--lock-timeout');
  const session = await openSession(io, o, 'apply', { rollout: { parallelism } });
  let lock: HeldLock | null = null;
  try {
    if (!o.dryRun) lock = await session.store.lock({ timeoutMs: lockTimeoutMs, operation: 'apply', onNote: noteTo(io), command: commandLine(io) });
    // The state may have moved while we waited for the lock.
    if (lock) session.state = (await session.store.read()) ?? newState();
    return await applyWith(session, o, io, parallelism, lock);
  } finally {
    await lock?.release();
    await session.close();
  }
}

async function applyWith(session: Session, o: Options, io: Io, parallelism: number | undefined, lock: HeldLock | null): Promise<number> {
  const view = newApplyView(viewType(o), io);
  const observed = await session.observe();
  const force = o.force === true;
  const p: Plan = o.plan
    ? await loadSavedPlan(io, { file: o.plan, configFile: o.file, config: session.config, observed, state: session.state, force })
    : makePlan(session.config, observed, session.state, { targets: o.target, allowEmpty: o.allowEmpty === true, force });
  const reasons = unreachableReasons(observed);
  view.plan(p);
  if (p.actions.length === 0 || o.dryRun) {
    const report = reportWithoutRun(p, session.config, null, reasons);
    view.idle(p, report, o.dryRun === true);
    return o.dryRun ? dryRunExitCode(p) : applyExitCode(report);
  }
  if (!o.yes && !o.plan) await confirmApply(io, view.say);
  const progress = view.progress(p.actions.length);
  const result = await withInterrupts(io, (stop, hard) => apply(p, session.config, {
    hub: session.hub, daemon: session.daemon, store: session.store, state: session.state, hard,
    reasons, locks: lock ? [lock] : [], notify: session.notify, trigger: 'apply', ...(parallelism === undefined ? {} : { parallelism }),
  }, stop, (e) => progress.onEvent(e)));
  progress.finish();
  view.report(p, result.report);
  return applyExitCode(result.report);
}

function parsePositive(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--parallelism: expected a whole number of robots of 1 or more, got '${text}'`);
  return n;
}
