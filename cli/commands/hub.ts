import type { Io } from '../../lib/io.js';
import { errorMessage, UsageError, UserError } from '../../lib/errors.js';
import { newCommand, parse } from '../command.js';
import { readTokenFile, TOKEN_WARNING } from '../session/token-flags.js';
import { EXIT } from '../exit-codes.js';
import { waitForStop } from '../session/stop-signals.js';
import { DEFAULT_HUB_USER, EMBEDDED_HUB_PORT, startHub } from '../../runtime/hub/server.js';
import { withAllowedHostOption, type AllowedHostFlags } from '../session/allowed-hosts.js';

// `robotctl hub`: the embedded hub on its own. The first line printed is
// `listening on http://HOST:PORT` so scripts can read the port.

interface HubCliOpts extends AllowedHostFlags { host: string; port: string; data?: string; user: string[]; fullName: string[]; org: string[]; orgFullName: string[]; token: string[]; tokenFile: string[]; jobCommand?: string; quietDeliveries?: boolean }

const collect = (v: string, prev: string[]) => [...prev, v];

/** Each --user paired with the --token (warned about: argv is public) or --token-file at the same position. */
function users(io: Io, o: HubCliOpts): { name: string; token: string; fullname?: string }[] {
  if (o.token.length > 0 && o.tokenFile.length > 0) throw new UsageError('give the users\' tokens with --token or with --token-file, not both');
  if (o.token.length > 0) io.err(TOKEN_WARNING);
  const tokens = o.token.length > 0 ? o.token : o.tokenFile.map((file) => readTokenFile(io, file));
  if (o.user.length !== tokens.length) throw new UsageError('give one --token-file (or --token) per --user, in the same order');
  if (o.fullName.length > 0 && o.fullName.length !== o.user.length) throw new UsageError('give one --full-name per --user, in the same order (or none)');
  return o.user.map((name, i) => ({ name, token: tokens[i] ?? '', ...(o.fullName[i] ? { fullname: o.fullName[i] } : {}) }));
}

/** `--org NAME=MEMBER[,MEMBER…]`, each with the --org-full-name at the same position (or none). */
function orgs(o: HubCliOpts): { name: string; fullname?: string; members: string[] }[] {
  if (o.orgFullName.length > 0 && o.orgFullName.length !== o.org.length) throw new UsageError('give one --org-full-name per --org, in the same order (or none)');
  return o.org.map((spec, i) => {
    const m = /^([^=\s]+)=([^=\s]+)$/.exec(spec);
    if (!m?.[1] || !m[2]) throw new UsageError(`--org '${spec}': expected NAME=MEMBER[,MEMBER…], e.g. --org my-org=alice,bob`);
    const members = m[2].split(',').filter(Boolean);
    const unknown = members.filter((name) => !o.user.includes(name));
    if (unknown.length > 0) throw new UsageError(`--org '${spec}': ${unknown.join(', ')} is not a --user`);
    return { name: m[1], members, ...(o.orgFullName[i] ? { fullname: o.orgFullName[i] } : {}) };
  });
}

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withAllowedHostOption(newCommand('hub', io))
    .description('Run the embedded hub: webhook API, repos, discussions, real deliveries.')
    .option('--host <host>', 'Interface to listen on', '127.0.0.1')
    .option('--port <port>', 'Port (0 = any free port)', String(EMBEDDED_HUB_PORT))
    .option('--data <dir>', 'Keep everything in this folder (default: memory only)')
    .option('--user <name>', 'A user, repeatable; pair each with --token-file', collect, [])
    .option('--full-name <text>', 'The full name of the --user at the same position (whoami, pages); default: the name', collect, [])
    .option('--org <name=members>', 'An organisation and its members (--user names, comma-separated), repeatable', collect, [])
    .option('--org-full-name <text>', 'The full name of the --org at the same position', collect, [])
    .option('--token-file <path>', 'A file holding the token of the --user at the same position', collect, [])
    .option('--token <token>', 'The token of the --user at the same position (visible in the process list: prefer --token-file)', collect, [])
    .option('--job-command <cmd>', 'Shell command run for job webhooks, with WEBHOOK_PAYLOAD, WEBHOOK_REPO_ID, WEBHOOK_REPO_TYPE, WEBHOOK_SECRET')
    .option('--quiet-deliveries', 'Do not log deliveries and job runs to stderr')
    .addHelpText('after', `\nWithout --user, one user '${DEFAULT_HUB_USER.name}' exists with the token '${DEFAULT_HUB_USER.token}'.\nThe data folder holds webhook secrets in clear (the hub returns them to their owner): it is written 0600.\nEmulator-only route: GET /api/settings/webhooks/{id}/activity (delivery attempts and job runs).\nRepositories are bare git repos (in --data/repos): git clone/fetch/push http://HOST:PORT/spaces/<owner>/<name>\n(models at /<owner>/<name>, datasets at /datasets/…), with the token as the password; needs git.\nThe same addresses open as pages in a browser (README, files, last commits, clone command; public repos only),\nand http://HOST:PORT/ lists them.\n`);
  cmd.action(async (o: HubCliOpts) => {
    const port = Number(o.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, got '${o.port}'`);
    const list = users(io, o);
    const orgList = orgs(o);
    const hub = await startHub({
      host: o.host, port, dataDir: o.data ?? null, users: list, orgs: orgList, jobCommand: o.jobCommand ?? null, allowedHosts: o.allowedHost,
      log: o.quietDeliveries ? () => {} : (line) => io.err(`${line}\n`),
    }).catch((err: unknown) => {
      const busy = (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? ' (pass --port N, or --port 0 for any free port)' : '';
      throw new UserError(`cannot start the hub on ${o.host}:${port}${o.data ? ` with data in ${o.data}` : ''}: ${errorMessage(err)}${busy}`);
    });
    const stop = waitForStop();
    io.out(`listening on ${hub.url}\n`);
    if (list.length === 0) {
      // The token is printed only because it is the documented default, never one the user chose.
      io.out(`user '${DEFAULT_HUB_USER.name}', token '${DEFAULT_HUB_USER.token}' (pass --user NAME --token-file FILE to choose)\n`);
    } else {
      io.out(`users: ${list.map((u) => u.name).join(', ')}\n`);
    }
    if (o.data) io.out(`data: ${o.data}\n`);
    const sig = await stop.promise;
    io.err(`${sig}: closing\n`);
    await hub.close();
  });
  await parse(cmd, args);
  return EXIT.ok;
}
