import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UserError, errorMessage } from '../../lib/errors.js';
import { newCommand, parse } from '../command.js';
import { plan } from '../../reconciler/plan.js';
import { planToJson } from '../../reconciler/plan-file.js';
import { sealPlan } from '../../reconciler/seal.js';
import type { SealedPlan } from '../../reconciler/types.js';
import { newPlanView } from '../views/plan-view.js';
import { viewType } from '../views/view-type.js';
import { commandLine } from '../views/command-line.js';
import type { CommandLine } from '../../lib/command-line.js';
import { blindness, planExitCode } from '../exit-codes.js';
import { openSession } from '../session/session.js';
import { collect, withSessionOptions, type SessionFlags } from '../session/options.js';

interface Options extends SessionFlags { out?: string; json?: boolean; target: string[]; allowEmpty?: boolean; force?: boolean }

const helpAfter = (command: CommandLine): string => `
Observes the hub (one list call) and every robot, and prints what apply would do.
--out saves the plan (JSON, format_version, no secret) for \`${command('apply --plan')}\`.
Exit codes: 0 no changes, 2 changes, 1 error (also when the hub or a robot could not be observed), 64 usage error.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('plan', io))
    .description('Show what apply would change (exit 0 nothing, 2 changes)')
    .option('--out <file>', 'save the plan to this file for `apply --plan`')
    .option('--json', 'print the plan as JSON (format_version) instead of text')
    .option('--target <address>', 'limit to webhooks.NAME or robots.NAME (repeatable)', collect, [])
    .option('--allow-empty', 'allow a plan that deletes everything the file owns')
    .option('--force', 'also delete webhooks that changed outside robotctl since the state recorded them (apply it with --force)')
    .addHelpText('after', () => helpAfter(commandLine(io)));
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const view = newPlanView(viewType(o), io);
  const session = await openSession(io, o, 'plan');
  try {
    const observed = await session.observe();
    const p = plan(session.config, observed, session.state, { targets: o.target, allowEmpty: o.allowEmpty === true, force: o.force === true });
    let sealed: SealedPlan | undefined;
    const seal = (): SealedPlan => (sealed ??= sealPlan(p, session.config, observed));
    if (o.out) await savePlan(resolve(io.cwd, o.out), seal());
    view.show(p, seal);
    if (o.out) view.saved(o.out, o.file);
    const blind = blindness(p);
    if (blind) view.incomplete(blind);
    return planExitCode(p);
  } finally {
    await session.close();
  }
}

async function savePlan(path: string, p: SealedPlan): Promise<void> {
  try {
    await writeFile(path, planToJson(p), { mode: 0o600 });
  } catch (err) {
    throw new UserError(`cannot write the plan to ${path}: ${errorMessage(err)}`);
  }
}
