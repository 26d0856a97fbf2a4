import type { Io } from '../../lib/io.js';
import { withSessionOptions, type SessionFlags } from '../session/options.js';
import { newCommand, parse } from '../command.js';
import { plan } from '../../reconciler/plan.js';
import { openSession } from '../session/session.js';
import { newStatusView } from '../views/status-view.js';
import { fleetStatus } from '../../reconciler/agent/status-fleet.js';
import { viewType } from '../views/view-type.js';
import { EXIT } from '../exit-codes.js';

interface Options extends SessionFlags { json?: boolean }

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('status', io))
    .description('Table of webhooks, robots, installed and running apps')
    .option('--json', 'print a JSON document (format_version) instead of tables')
    .addHelpText('after', '\nExit codes: 0 shown (whatever the status), 1 error, 64 usage error.\n');
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const view = newStatusView(viewType(o), io);
  const session = await openSession(io, o, 'status');
  try {
    const observed = await session.observe(undefined, { daemonStatus: true });
    const p = plan(session.config, observed, session.state, { allowEmpty: true });
    view.show(fleetStatus({
      config: session.config, file: session.config.file, hubEndpoint: session.hub.endpoint, watchesHub: session.listWebhooks,
      observation: observed, remaining: p, state: session.state, lastRun: null, now: new Date(),
    }));
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
