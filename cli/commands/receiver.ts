import type { Io } from '../../lib/io.js';
import { ExitError, UsageError, UserError } from '../../lib/errors.js';
import { DEFAULT_RECEIVER_PORT } from '../../lib/receiver-port.js';
import { newCommand, parse } from '../command.js';
import { loadConfig } from '../../schema/load.js';
import { formatDiagnostic, type ReceiverEndpointSpec } from '../../schema/types.js';
import { createReceiver } from '../../runtime/receiver/index.js';
import { addActionEndpoints, cliSecretHint, logAction, type ReceiverActions } from '../../reconciler/agent/receiver-actions.js';
import { formatDeliveryLine, landingPage } from '../../runtime/receiver/index.js';
import { EXIT } from '../exit-codes.js';
import { waitForStop } from '../session/stop-signals.js';
import { withAllowedHostOption, type AllowedHostFlags } from '../session/allowed-hosts.js';
import { commandLine } from '../views/command-line.js';
import { shellWord, type CommandLine } from '../../lib/command-line.js';

interface Options extends AllowedHostFlags {
  file?: string;
  port?: string;
  host: string;
  secret: string[];
}

interface Plan {
  port: number;
  secrets: string[];
  endpoints: ReceiverEndpointSpec[];
  file: string | null;
}

const helpAfter = (command: CommandLine): string => `
Endpoints are served at /webhooks/<name>; each runs its built-in action:
  log        print one line per delivery (time, endpoint, event scope/action, repo)
  reconcile  logs what it would do: \`${command('agent -f robot.yaml')}\` performs reconciles
  redeploy   logs the app it would redeploy: \`${command('agent -f robot.yaml')}\` performs redeploys
Without -f it serves one log endpoint, /webhooks/log.
Secrets: --secret (repeat it during a rotation), else the receiver section's secrets,
else WEBHOOK_SECRET; with none the endpoints are open to everyone.
The first line printed is \`listening on http://HOST:PORT\`. Ctrl-C stops it.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withAllowedHostOption(newCommand('receiver', io))
    .description('Serve the webhook receiver endpoints of robot.yaml (or one log endpoint)')
    .option('-f, --file <file>', 'robot.yaml whose receiver section to serve')
    .option('--port <port>', `port to listen on (default: the file's, else ${DEFAULT_RECEIVER_PORT}; 0 = any free port)`)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--secret <secret>', 'accepted webhook secret (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .addHelpText('after', () => helpAfter(commandLine(io)));
  await parse(cmd, args);
  const plan = await planReceiver(cmd.opts<Options>(), io);
  return serve(plan, cmd.opts<Options>(), io);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got '${text}'`);
  return port;
}

async function planReceiver(opts: Options, io: Io): Promise<Plan> {
  const flagPort = opts.port === undefined ? null : parsePort(opts.port);
  if (!opts.file) {
    return { port: flagPort ?? DEFAULT_RECEIVER_PORT, secrets: opts.secret, endpoints: [{ name: 'log', action: 'log', app: null }], file: null };
  }
  const loaded = loadConfig(opts.file, io.env, { cwd: io.cwd });
  if (!loaded.ok) {
    for (const d of loaded.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
    throw new ExitError(EXIT.error);
  }
  for (const w of loaded.warnings) io.err(`Warning: ${formatDiagnostic(w)}\n`);
  const spec = loaded.config.receiver;
  if (!spec || spec.endpoints.length === 0) {
    throw new UserError(`${opts.file} declares no receiver endpoints. Add a \`receiver:\` section with endpoints, or run \`${commandLine(io)('receiver')}\` without -f to serve /webhooks/log.`);
  }
  const secrets = opts.secret.length > 0 ? opts.secret : spec.secrets;
  return { port: flagPort ?? spec.port, secrets, endpoints: spec.endpoints, file: loaded.config.file };
}

function cliActions(plan: Plan, log: (line: string) => void, command: CommandLine): ReceiverActions {
  const file = plan.file ?? 'robot.yaml';
  // Written when a delivery is logged: a receiver that gets none looks nothing up.
  const agent = (): string => command(`agent -f ${shellWord(file)}`);
  return {
    log: logAction(log),
    reconcile: async (payload, endpoint) => {
      log(`${formatDeliveryLine(payload, `/webhooks/${endpoint.name}`)}: would reconcile ${file}; \`${agent()}\` performs it`);
      return { action: 'reconcile', performed: false };
    },
    redeploy: async (payload, endpoint) => {
      log(`${formatDeliveryLine(payload, `/webhooks/${endpoint.name}`)}: would redeploy app ${endpoint.app ?? '(none)'}; \`${agent()}\` performs it`);
      return { action: 'redeploy', app: endpoint.app, performed: false };
    },
  };
}

async function serve(plan: Plan, opts: Options, io: Io): Promise<number> {
  // The receiver prints its start messages while starting; hold them so that
  // `listening on …` is the first line, as scripts expect.
  let held: string[] | null = [];
  const log = (line: string): void => {
    if (held) held.push(line);
    else io.out(`${line}\n`);
  };
  const landing = (endpoints: string[]): string => landingPage(endpoints, commandLine(io)('apply'));
  const receiver = createReceiver({
    secret: plan.secrets, env: io.env, port: plan.port, host: opts.host, allowedHosts: opts.allowedHost, log, landingPage: landing,
    secretHint: cliSecretHint(opts.file ?? null),
  });
  addActionEndpoints(receiver, plan.endpoints, cliActions(plan, log, commandLine(io)));
  const stopped = waitForStop();
  try {
    const { url } = await receiver.start();
    io.out(`listening on ${url}\n`);
  } catch (err) {
    stopped.cancel();
    throw startError(err, plan.port);
  }
  for (const line of held) io.out(`${line}\n`);
  held = null;
  await stopped.promise;
  await receiver.close();
  return EXIT.ok;
}

function startError(err: unknown, port: number): Error {
  const code = (err as { code?: unknown }).code;
  if (code === 'EADDRINUSE') return new UserError(`port ${port} is already in use; pick another with --port (0 = any free port)`);
  if (code === 'EACCES') return new UserError(`not allowed to listen on port ${port}; pick another with --port`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new UserError('cannot listen on that --host address');
  return err instanceof Error ? err : new Error(String(err));
}

