import { useColor, type Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { plan } from '../../reconciler/plan.js';
import { openSession } from '../session/session.js';
import { blindness, withSessionOptions } from '../session/options.js';
import { diffJson, renderDiff } from '../views/diff-view.js';

interface Options { file: string; json?: boolean; state?: string; token?: string }

const HELP_AFTER = `
Drift detection for CI: compares the hub and every robot with robot.yaml.
Exit codes: 0 no drift, 2 drift, 1 error. A hub or robot that cannot be
observed is an error (exit 1), never reported as drift.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('diff', io))
    .description('Detect drift for CI (exit 0 none, 2 drift, 1 error)')
    .option('--json', 'print a JSON document (format_version) instead of text')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const session = await openSession(io, o);
  try {
    const observed = await session.observe();
    // allowEmpty: diff only reports; refusing belongs to apply.
    const p = plan(session.config, observed, session.state, { allowEmpty: true });
    io.out(o.json ? diffJson(p) : renderDiff(p, useColor(io)));
    const blind = blindness(p);
    if (blind) {
      io.err(`Error: ${blind}; drift cannot be ruled out\n`);
      return 1;
    }
    return p.actions.length > 0 ? 2 : 0;
  } finally {
    await session.close();
  }
}
