import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UsageError, UserError } from '../../lib/errors.js';
import { newCommand, parse } from '../command.js';
import { resolveToken } from '../../drivers/hub/token.js';
import { EXIT } from '../exit-codes.js';
import { mapBounded } from '../../lib/map-bounded.js';
import { commandLine } from '../views/command-line.js';
import { releaseFlags, type ReleaseFlags } from './daemon/release-flags.js';
import { withAllowedHostOption, type AllowedHostFlags } from '../session/allowed-hosts.js';

// `robotctl daemon --sim`: the bundled robot daemon (runtime/daemon) in the
// foreground until SIGINT/SIGTERM. Apps live in --apps-dir, by default
// $XDG_DATA_HOME/robotctl/apps or ~/.local/share/robotctl/apps.
// `--robots N` simulates a fleet in this one process (one event loop): robot
// i listens on --port + i (each on a free port with --port 0), keeps its
// apps in <apps-dir>/robot-<i> and is named <robot-name>-<i>; the robots share
// the machine's venv template and wheel cache (runtime/daemon/apps).
// Each robot advertises itself over mDNS like the real daemon (--no-mdns:
// not), with a hardware id of its own, once every robot's port is bound (a
// port taken advertises none), and simulates the daemon's updates
// (--daemon-version, --releases, --crashloop-releases: daemon/release-flags.ts).

interface Flags extends AllowedHostFlags {
  sim?: boolean;
  host: string;
  port: string;
  robotName: string;
  appsDir?: string;
  hub?: string;
  stopTimeout: string;
  startupApp?: string;
  python: string;
  offline?: boolean;
  robots: string;
  mdns: boolean;
  appEnv: string[];
}

function number(value: string, flag: string, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new UsageError(`${flag} must be a number ≥ ${min}, got '${value}'`);
  return n;
}

/**
 * Resolves on the first SIGINT/SIGTERM. Later signals are only acknowledged:
 * dying mid-stop would orphan the app's process group.
 */
function waitForSignal(io: Io): Promise<string> {
  return new Promise((resolveSignal) => {
    let first: string | null = null;
    const on = (sig: string): void => {
      if (first) {
        io.err(`${sig}: still stopping the app (at most the stop timeout), please wait\n`);
        return;
      }
      first = sig;
      resolveSignal(sig);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * Offline installs build apps with Debian's wheel file: say at once, before
 * any app is installed or started, when it is missing and how to fix it.
 */
async function warnOfflineWithoutWheel(io: Io, offline: boolean): Promise<void> {
  const { findWheelFile, wheelMissing } = await import('../../lib/python-apps/wheel-file.js');
  if (findWheelFile(io.env)) return;
  const { indexModeCache, indexSetting } = await import('../../lib/python-apps/package-index.js');
  const warn = (why: string): void => io.err(`Warning: offline (${why}): ${wheelMissing(io.env)}\n`);
  const known = indexSetting(io.env, offline);
  if (!('url' in known)) return warn(known.reason);
  void indexModeCache(io.env)().then((m) => { if (!m.online) warn(m.reason); });
}

interface RunningRobot {
  url: string;
  close(): Promise<void>;
  stats(): { requests: number; writes: number };
  advertise(): Promise<void>;
}

/** Robots started (and advertised) at once: a robot's start waits on its files (the running note) as much as on the CPU. */
const START_BATCH = 8;

/**
 * Starts robots 0..n-1, a batch at a time, in order; once every one listens,
 * advertises them over mDNS. If one fails (a port taken), every robot
 * started so far is closed, and none was ever advertised.
 */
async function startRobots(n: number, start: (i: number) => Promise<RunningRobot>): Promise<RunningRobot[]> {
  const running: RunningRobot[] = [];
  const closeAll = async (): Promise<void> => { await Promise.all(running.map((d) => d.close())); };
  for (let first = 0; first < n; first += START_BATCH) {
    const batch = await Promise.allSettled(Array.from({ length: Math.min(START_BATCH, n - first) }, (_, k) => start(first + k)));
    for (const r of batch) if (r.status === 'fulfilled') running.push(r.value);
    const failed = batch.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await closeAll();
      throw failed.reason;
    }
  }
  try {
    await mapBounded(running, START_BATCH, (d) => d.advertise());
  } catch (err) {
    await closeAll();
    throw err;
  }
  return running;
}

/** `kill -USR2 <pid>`: how many requests the robots have answered so far (benchmarks count a client's calls per robot). */
function reportRequestsOnSignal(io: Io, running: RunningRobot[]): void {
  process.on('SIGUSR2', () => {
    const total = running.reduce((sum, d) => { const s = d.stats(); return { requests: sum.requests + s.requests, writes: sum.writes + s.writes }; }, { requests: 0, writes: 0 });
    io.err(`requests: ${total.requests} (${total.writes} writes) over ${running.length} robot${running.length === 1 ? '' : 's'}\n`);
  });
}

export async function run(args: string[], io: Io): Promise<number> {
  let flags: Flags | null = null;
  const cmd = withAllowedHostOption(newCommand('daemon', io))
    .description('Run a Reachy Mini daemon (REST + WebSocket API of the real one) with a simulated robot')
    .option('--sim', 'simulated robot (the only backend robotctl has)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '8000')
    .option('--robot-name <name>', 'robot name', 'reachy_mini')
    .option('--apps-dir <dir>', 'apps virtual environment and metadata (default ~/.local/share/robotctl/apps)')
    .option('--hub <url>', 'hub that huggingface.co Space URLs download from (default $HF_ENDPOINT or https://huggingface.co); a Space URL on another host is downloaded from that host')
    .option('--stop-timeout <seconds>', 'how long a stopping app gets before it is killed', '20')
    .option('--startup-app <name>', 'set the saved startup app (what PUT /api/apps/startup-app sets; robot.yaml\'s startup_app replaces it once applied) and start it with the daemon')
    .option('--python <python>', 'Python used to create the apps virtual environment', 'python3')
    .option('--offline', 'install apps without a package index (also automatic when PIP_NO_INDEX is set or the index does not answer within 3 s)')
    .option('--app-env <name>', 'give apps this variable of the daemon\'s environment too (repeatable); apps otherwise get only PATH, HOME, locale, HF_ENDPOINT and the SDK\'s own, never a token or password', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--robots <n>', 'simulate N robots in this process, on ports --port, --port + 1, … (all free ports with --port 0)', '1')
    .option('--no-mdns', 'do not advertise the robots over mDNS (_reachy-mini._tcp)')
    .option('--daemon-version <version>', 'the daemon version the robots start with (default: the one they were last updated to, else 1.10.0)')
    .option('--releases <list>', 'versions the simulated update can install, comma-separated (default 1.8.3,1.9.0,1.10.0)')
    .option('--crashloop-releases <list>', 'versions whose update leaves the daemon crash-looping: it never answers again until restarted')
    .option('--hardware-id <id>', 'the hardware id of a single robot (default: derived from its apps folder; none: no robot attached)')
    .action((opts: Flags) => { flags = opts; });
  await parse(cmd, args);
  if (!flags) return EXIT.ok;
  const f: Flags & ReleaseFlags = flags;
  if (!f.sim) {
    throw new UserError(`no hardware backend: robotctl only ships a simulated robot. Run \`${commandLine(io)('daemon --sim')}\` (a real Reachy Mini runs its own daemon).`);
  }
  const port = number(f.port, '--port', 0);
  const robots = number(f.robots, '--robots', 1);
  if (!Number.isInteger(robots) || robots > 5000) throw new UsageError(`--robots must be a whole number from 1 to 5000, got '${f.robots}'`);
  if (port > 0 && port + robots - 1 > 65535) throw new UsageError(`--port ${port} with --robots ${robots} runs past port 65535`);
  const stopTimeoutMs = number(f.stopTimeout, '--stop-timeout', 0) * 1000;
  const release = releaseFlags(f, robots);
  const home = io.env.HOME ?? homedir();
  const { defaultAppsDir } = await import('../../runtime/daemon/context.js');
  const { startDaemon } = await import('../../runtime/daemon/server.js');
  await warnOfflineWithoutWheel(io, f.offline === true);
  const appsRoot = f.appsDir ? resolve(io.cwd, f.appsDir) : defaultAppsDir(home, io.env);
  const base = {
    host: f.host, sim: true as const, stopTimeoutMs, python: f.python,
    hubEndpoint: f.hub ?? io.env.HF_ENDPOINT ?? 'https://huggingface.co',
    // Same order as every hub call: HF_TOKEN, HF_TOKEN_PATH, $HF_HOME/token (`robotctl auth login`).
    hubToken: resolveToken({ env: io.env })?.token ?? null,
    ...(f.startupApp !== undefined ? { startupApp: f.startupApp } : {}),
    env: io.env,
    offline: f.offline === true,
    mdns: f.mdns,
    mdnsWhenTold: true,
    release: release.release,
    ...(release.hardwareId !== undefined ? { hardwareId: release.hardwareId } : {}),
    allowedHosts: f.allowedHost,
    appEnv: f.appEnv,
    command: commandLine(io),
  };
  const startOne = (i: number): Promise<RunningRobot> => {
    const one = robots === 1;
    const robotPort = port === 0 ? 0 : port + i;
    return startDaemon({
      ...base, port: robotPort,
      robotName: one ? f.robotName : `${f.robotName}-${i}`,
      appsDir: one ? appsRoot : join(appsRoot, `robot-${i}`),
      log: one ? (line) => io.err(`${line}\n`) : (line) => io.err(`[${f.robotName}-${i}] ${line}\n`),
    }).catch((err: unknown) => {
      const code = (err as { code?: string }).code;
      if (code === 'EADDRINUSE') throw new UserError(`port ${robotPort} on ${f.host} is already in use (try --port 0)`);
      if (code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new UserError(`cannot listen on ${f.host}:${robotPort} (${code})`);
      throw err;
    });
  };
  // Listening for Ctrl-C before any `listening on` line: one sent right after
  // it must stop the robots cleanly, not meet Node's default and kill us.
  const signalled = waitForSignal(io);
  const running = await startRobots(robots, startOne);
  // Said once every robot listens and is advertised: `robots discover` run after the last line finds them all.
  running.forEach((d, i) => io.out(robots === 1 ? `listening on ${d.url}\n` : `listening on ${d.url} (${f.robotName}-${i})\n`));
  const closeAll = async (): Promise<void> => { await Promise.all(running.map((d) => d.close())); };
  reportRequestsOnSignal(io, running);
  const sig = await signalled;
  io.err(`${sig}: stopping the current app${robots === 1 ? '' : 's'} and closing\n`);
  await closeAll();
  return EXIT.ok;
}
