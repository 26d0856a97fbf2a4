import type { Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { plan } from '../../reconciler/plan.js';
import { openSession } from '../session/session.js';
import { withSessionOptions, type SessionFlags } from '../session/options.js';
import { newDiffView } from '../views/diff-view.js';
import { viewType } from '../views/view-type.js';
import { blindness, planExitCode } from '../exit-codes.js';

interface Options extends SessionFlags { json?: boolean }

const HELP_AFTER = `
Drift detection for CI: compares the hub and every robot with robot.yaml.
Exit codes: 0 no drift, 2 drift, 1 error, 64 usage error. A hub or robot that
cannot be observed is an error (exit 1), never reported as drift.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('diff', io))
    .description('Detect drift for CI (exit 0 none, 2 drift, 1 error)')
    .option('--json', 'print a JSON document (format_version) instead of text')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const view = newDiffView(viewType(o), io);
  const session = await openSession(io, o, 'diff');
  try {
    const observed = await session.observe();
    // allowEmpty: diff only reports; refusing belongs to apply.
    const p = plan(session.config, observed, session.state, { allowEmpty: true });
    view.show(p);
    const blind = blindness(p);
    if (blind) view.incomplete(blind);
    return planExitCode(p);
  } finally {
    await session.close();
  }
}
