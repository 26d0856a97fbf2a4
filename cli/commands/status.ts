import { useColor, type Io } from '../../lib/io.js';
import { withSessionOptions } from '../session/options.js';
import { newCommand, parse } from '../command.js';
import { plan } from '../../reconciler/plan.js';
import { openSession } from '../session/session.js';
import { renderStatus, statusDoc, statusJson } from '../views/status-view.js';

interface Options { file: string; json?: boolean; state?: string; token?: string }

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('status', io))
    .description('Table of webhooks, robots, installed and running apps')
    .option('--json', 'print a JSON document (format_version) instead of tables')
    .addHelpText('after', '\nExit codes: 0 shown (whatever the status), 1 error.\n');
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const session = await openSession(io, o);
  try {
    const observed = await session.observe(undefined, { daemonStatus: true });
    const p = plan(session.config, observed, session.state, { allowEmpty: true });
    const doc = statusDoc(session.config, observed, session.state, p);
    io.out(o.json ? statusJson(doc) : renderStatus(doc, useColor(io)));
    return 0;
  } finally {
    await session.close();
  }
}
