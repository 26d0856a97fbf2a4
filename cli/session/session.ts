import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { ExitError, UsageError, UserError } from '../../lib/errors.js';
import { durationMs } from '../../lib/duration.js';
import { loadConfig } from '../../schema/load.js';
import { formatDiagnostic, type Config } from '../../schema/types.js';
import type { HubClient } from '../../drivers/hub/types.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { NotifySender } from '../../drivers/notify/webhook.js';
import { newState } from '../../state/file.js';
import type { StateFile } from '../../state/types.js';
import type { StateStore } from '../../state/store.js';
import { openStateOf } from './state.js';
import { observe } from '../../reconciler/observe.js';
import { driverPool, hubAccess } from './drivers.js';
import { resolveToken } from '../../drivers/hub/token.js';
import { withConfigEnv } from './config-env.js';
import type { SessionFlags } from './options.js';
import { tokenFromFlags } from './token-flags.js';
import type { Observation, RobotAddress } from '../../reconciler/types.js';
import { EXIT } from '../exit-codes.js';
import { firstTierWebAssembly } from '../../lib/webassembly-tier.js';
import { commandLine } from '../views/command-line.js';

// What every reconciling command starts from: the loaded file, its state,
// a hub client (endpoint from HF_ENDPOINT / robot.yaml, token from --token /
// HF_TOKEN / token file) and one daemon client per robot, closed together.

export type SessionOptions = SessionFlags;

export interface Session {
  config: Config;
  /** Where the state lives (local file, hub dataset, PostgreSQL); closed with the session. */
  store: StateStore;
  state: StateFile;
  hub: HubClient;
  /** False when there is no webhook to look at (file and state) and no token: listing is skipped. */
  listWebhooks: boolean;
  daemon: (robot: RobotAddress) => DaemonClient;
  /** The notify webhook's sender (robot.yaml notify.webhook; made on its first POST). */
  notify: NotifySender | null;
  /** `daemonStatus`: also read each robot's daemon status (the status table shows it). */
  observe(signal?: AbortSignal, opts?: { daemonStatus?: boolean }): Promise<Observation>;
  close(): Promise<void>;
}

/** Load robot.yaml (its warnings on stderr) or print its diagnostics and exit 1; `command` names the command in the hint for a missing file. */
export function loadOrExit(file: string, io: Io, command = 'plan'): Config {
  if (!existsSync(resolve(io.cwd, file))) throw missingFile(file, io, command);
  const result = loadConfig(file, io.env, { cwd: io.cwd });
  if (result.ok) {
    for (const w of result.warnings) io.err(`Warning: ${formatDiagnostic(w)}\n`);
    return result.config;
  }
  for (const d of result.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
  io.err(`Error: ${file} is not valid (${result.diagnostics.length} problem${result.diagnostics.length === 1 ? '' : 's'}); fix it and run again.\n`);
  throw new ExitError(EXIT.error);
}

function missingFile(file: string, io: Io, command: string): UserError {
  if (file === 'robot.yaml') {
    return new UserError(`there is no robot.yaml in ${io.cwd}: name the file with -f, for example \`${commandLine(io)(`${command} -f examples/fleet.yaml`)}\``);
  }
  return new UserError(`${file} does not exist (looked in ${io.cwd}): check the path given to -f`);
}

export interface OpenOptions {
  /**
   * apply: keep the connections of as many robots as the rollout works on at
   * once (drivers/daemon/pool.ts): `parallelism` (--parallelism), else the file's rollout.parallelism.
   */
  rollout?: { parallelism?: number | undefined };
}

/** robot.yaml loaded, then its state store opened, then the drivers made for it. */
export async function openSession(outer: Io, o: SessionOptions, command: string, opts: OpenOptions = {}): Promise<Session> {
  // A session's commands run and exit: see lib/webassembly-tier.ts. The agent, which runs on, keeps V8's defaults.
  firstTierWebAssembly();
  const io = withConfigEnv(outer, o.file);
  const found = resolveToken({ flag: tokenFromFlags(io, o), env: io.env });
  const config = loadOrExit(o.file, io, command);
  const store = await openStateOf(io, o, config.hub.endpoint, () => config.stateBlock ?? null);
  try {
    const state = (await store.read()) ?? newState();
    const access = hubAccess(found, Object.keys(state.webhooks).length > 0, config, commandLine(io));
    const pool = driverPool(io.env, access.token, access.listWebhooks, opts.rollout ? { robotsAtOnce: opts.rollout.parallelism ?? config.rollout.parallelism } : {});
    const drivers = pool.forConfig(config);
    return {
      config, store, state, hub: drivers.hub, daemon: drivers.daemon, listWebhooks: drivers.listWebhooks, notify: drivers.notify ?? null,
      observe: (signal, extra) => observe(config, drivers, signal, { listWebhooks: drivers.listWebhooks, command: commandLine(io), ...extra }),
      close: async () => { await pool.close(); await store.close(); },
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** `30s`, `2m`, `500ms`, `1h` or a bare number of seconds. */
export function parseDuration(text: string, flag: string): number {
  const ms = durationMs(text);
  if (ms === undefined) throw new UsageError(`${flag}: expected a duration such as 30s, 2m or 500ms, got '${text}'`);
  return ms;
}

/** Every robot name the file declares, and the unreachable ones' errors. */
export function unreachableReasons(obs: Observation): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, r] of Object.entries(obs.robots)) if (!r.reachable) out[name] = r.error;
  return out;
}
