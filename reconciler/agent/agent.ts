import { basename } from 'node:path';
import type { Config } from '../../schema/types.js';
import type { AgentStatus, RunSummary } from './status-types.js';
import { createReceiver, type Receiver } from '../../runtime/receiver/index.js';
import { addActionEndpoints, cliSecretHint } from './receiver-actions.js';
import { errorMessage } from '../../lib/errors.js';
import { DEFAULT_RECEIVER_PORT } from '../../lib/receiver-port.js';
import type { Observation, Plan } from '../types.js';
import type { StateFile } from '../../state/types.js';
import { WorkQueue } from './work-queue.js';
import type { WorkItem } from './work-item.js';
import { reconcileOnce, type AgentDrivers, type ApplyTuning } from './reconcile.js';
import { agentActions } from './deliveries.js';
import { buildStatus } from './status.js';
import { RolloutProgress } from './rollout-progress.js';
import { startWatchers, type Watchers } from './watch.js';
import { reloadConfig, localApps } from './reload.js';
import { sendStatus } from './status-route.js';
import { leadership } from './leadership.js';
import type { StateStore } from '../../state/store.js';
import { localStore } from '../../state/local-store.js';
import { defaultLocalPath } from '../../state/spec.js';
import { AppWatch } from './app-watch.js';
import { liveView } from './status-live.js';
import type { CommandLine } from '../../lib/command-line.js';

// The GitOps loop: robot.yaml and its path apps are watched, drift is
// checked on an interval, hub deliveries arrive at the receiver. Each of
// them only enqueues a key; one run at a time re-reads everything and
// converges (heal) or reports (warn). GET /status and the fleet page at /
// show where things stand.

export interface AgentOptions {
  /** robot.yaml as the user named it (reloaded from it). */
  file: string;
  cwd: string;
  /** For ${VAR} in the file and the receiver's WEBHOOK_SECRET. */
  env: NodeJS.ProcessEnv;
  mode: 'heal' | 'warn';
  intervalMs: number;
  /** Where the state lives; `statePath` is the local-file shorthand (default: beside robot.yaml). */
  store?: StateStore;
  statePath?: string;
  /** How often a standby agent tries to become the leader (default 1 s). */
  standbyPollMs?: number;
  /** Drivers for a config (called again after a reload; cache inside). */
  drivers: (config: Config) => AgentDrivers;
  /** Overrides the file's receiver port; 0 = a free port. */
  receiverPort?: number | null;
  receiverHost?: string;
  /** Names besides localhost and this machine's own under which the status API and fleet page answer (`--allowed-host`). */
  allowedHosts?: string[];
  log: (line: string) => void;
  /** Quiet time before a burst of file changes is acted on (default 300 ms). */
  debounceMs?: number;
  /** How long a run waits for the state lock (default 30 s). */
  lockTimeoutMs?: number;
  tuning?: ApplyTuning;
  /** Mounts extra pages on the receiver (the CLI adds the fleet page from runtime/fleet-page). */
  pages?: (receiver: Receiver) => void;
  /** How the user runs robotctl, for the commands the agent's messages suggest (the CLI's view: cli/views/command-line.ts). */
  command?: CommandLine;
}

export interface Agent {
  /** Receiver base URL (fleet page at `/`, status at `/status`). */
  readonly url: string;
  readonly config: Config;
  status(): AgentStatus;
  enqueue(item: WorkItem): boolean;
  /** Resolves when no run is in flight or waiting. */
  idle(): Promise<void>;
  /** Resolves with the first run's summary. */
  readonly firstRun: Promise<RunSummary>;
  /**
   * Finish the action in flight, release the lock, close watchers and
   * receiver. `abort` (a second Ctrl-C) also aborts the action in flight.
   */
  stop(abort?: boolean): Promise<void>;
}

interface Known {
  config: Config;
  observation: Observation | null;
  remaining: Plan | null;
  state: StateFile | null;
  lastRun: RunSummary | null;
  configError: string | null;
  /** Finished runs, oldest first, the last 10. */
  runs: RunSummary[];
  rollout: RolloutProgress | null;
}

export async function startAgent(initial: Config, opts: AgentOptions): Promise<Agent> {
  const log = opts.log;
  const stopping = new AbortController();
  const aborting = new AbortController();
  const known: Known = { config: initial, observation: null, remaining: null, state: null, lastRun: null, configError: null, runs: [], rollout: null };
  let resolveFirst: (s: RunSummary) => void = () => {};
  const firstRun = new Promise<RunSummary>((r) => { resolveFirst = r; });
  let watchers: Watchers | null = null;
  const store = opts.store ?? localStore(opts.statePath ?? defaultLocalPath(initial.file));
  const leader = leadership({
    store, pollMs: opts.standbyPollMs ?? 1000, log,
    onLead: () => { enqueue({ key: 'full', trigger: 'startup', note: opts.mode === 'heal' ? 'apply on taking the lead' : 'diff on taking the lead', expect: [] }); },
  });

  const run = async (item: WorkItem): Promise<void> => {
    if (item.key === 'file' && !(await reload())) return;
    const lead = leader.lock;
    if (lead === null) return;
    log(`reconcile (${item.trigger}${item.key === 'file' || item.key === 'full' ? '' : `, ${item.key}`}): ${item.note}`);
    known.lastRun = { trigger: item.trigger, startedAt: new Date().toISOString(), finishedAt: null, result: 'running', actions: [] };
    const out = await reconcileOnce(item, {
      config: known.config, store, mode: opts.mode, drivers: opts.drivers(known.config),
      stop: stopping.signal, hard: aborting.signal, leader: lead, lockTimeoutMs: opts.lockTimeoutMs ?? 30_000, log, ...(opts.tuning ? { tuning: opts.tuning } : {}), ...(opts.command ? { command: opts.command } : {}),
      onObserved: (observation, drift, state) => Object.assign(known, { observation, remaining: drift, state }),
      onApply: (plan) => {
        const progress = new RolloutProgress(plan, known.config);
        known.rollout = progress;
        return progress.onEvent;
      },
    });
    known.lastRun = out.summary;
    known.runs = [...known.runs, out.summary].slice(-10);
    if (out.summary.result !== 'running') known.rollout?.finish(out.summary.result);
    if (out.observation) known.observation = out.observation;
    if (out.remaining) known.remaining = out.remaining;
    if (out.state) known.state = out.state;
    log(`${out.summary.result}${driftNote(out.remaining)}`);
    resolveFirst(out.summary);
  };

  const reload = async (): Promise<boolean> => {
    const next = reloadConfig(opts.file, opts.env, opts.cwd, known.config, { config: initial, stateWhere: store.where });
    if (!next.ok) {
      known.configError = next.error;
      log(`${opts.file} is invalid; keeping the last good version:`);
      for (const line of next.lines) log(`  ${line}`);
      return false;
    }
    known.config = next.config;
    known.configError = null;
    watch.sync(next.config, opts.drivers(next.config).daemon);
    for (const note of next.notes) log(note);
    await watchers?.setApps(localApps(next.config));
    return true;
  };

  // Each robot's current app between runs (app-watch.ts): /status stays live.
  const watch = new AppWatch(() => {});
  const queue = new WorkQueue(run, (err, item) => log(`run for ${item.key} failed: ${errorMessage(err)}`));
  const enqueue = (item: WorkItem): boolean => (stopping.signal.aborted ? false : queue.enqueue(item));
  const receiver = makeReceiver(opts, initial, { config: () => known.config, enqueue, log });
  const status = (): AgentStatus => ({
    ...buildStatus({
      ...known, ...liveView(known.config, known.observation, known.remaining, known.state, watch.snapshot()), rollout: known.rollout?.snapshot() ?? null, file: initial.file, mode: opts.mode, intervalMs: opts.intervalMs, hubEndpoint: opts.drivers(known.config).hub.endpoint,
      watchesHub: opts.drivers(known.config).listWebhooks, deliveries: receiver.deliveries, now: new Date(),
    }),
    leadership: { role: leader.role, leader: leader.leader, state: store.where },
  });
  receiver.route('GET', '/status', (_req, res) => sendStatus(res, status()));
  opts.pages?.(receiver);
  const { url } = await receiver.start();
  try {
    watchers = await startWatchers(initial.file, opts.debounceMs ?? 300, {
      file: () => { enqueue({ key: 'file', trigger: 'file', note: `${opts.file} changed`, expect: [] }); },
      app: (name) => { enqueue({ key: `local:${name}`, trigger: 'file', note: `files of ${name} changed`, expect: [] }); },
    });
    await watchers.setApps(localApps(initial));
  } catch (err) {
    await receiver.close();
    throw err;
  }
  const timer = setInterval(() => enqueue({ key: 'full', trigger: 'interval', note: 'drift check', expect: [] }), opts.intervalMs);
  watch.sync(initial, opts.drivers(initial).daemon);
  log(`agent: ${opts.mode} mode, drift check every ${formatMs(opts.intervalMs)}, watching ${initial.file}`);
  log(`fleet page: ${url}/  status: ${url}/status`);
  await leader.start();

  let stopped: Promise<void> | null = null;
  return {
    url,
    get config() { return known.config; },
    status,
    enqueue,
    idle: () => queue.idle(),
    firstRun,
    stop: (abort = false) => {
      if (abort) aborting.abort();
      return stopped ??= (async () => {
        stopping.abort();
        clearInterval(timer);
        await watchers?.close();
        await queue.close();
        watch.close();
        await leader.stop();
        await receiver.close();
      })();
    },
  };
}

function makeReceiver(opts: AgentOptions, config: Config, sink: Parameters<typeof agentActions>[0]): Receiver {
  const spec = config.receiver;
  const receiver = createReceiver({
    secret: spec && spec.secrets.length > 0 ? spec.secrets : null,
    env: opts.env,
    port: opts.receiverPort ?? spec?.port ?? DEFAULT_RECEIVER_PORT,
    host: opts.receiverHost ?? '127.0.0.1',
    allowedHosts: opts.allowedHosts ?? [],
    landingPage: null,
    log: opts.log,
    secretHint: cliSecretHint(basename(config.file)),
    // The agent creates the webhooks itself: sending the user to the hub's settings page would mislead.
    setupHint: Object.keys(config.webhooks).length > 0
      ? `The webhooks of ${basename(config.file)} are created and kept by this agent; nothing to set up by hand.`
      : 'Declare a webhook in robot.yaml that points here and the agent will create it.',
  });
  addActionEndpoints(receiver, spec?.endpoints ?? [], agentActions(sink));
  return receiver;
}

function driftNote(remaining: Plan | null): string {
  if (!remaining) return '';
  const parts: string[] = [];
  if (remaining.actions.length > 0) parts.push(`${remaining.actions.length} difference(s) left`);
  if (remaining.unreachable.length > 0) parts.push(`unreachable: ${remaining.unreachable.join(', ')}`);
  if (remaining.hubError !== null) parts.push(`hub: ${remaining.hubError}`);
  if (remaining.heldBack.length > 0) parts.push(`held back: ${[...new Set(remaining.heldBack.map((h) => h.app))].join(', ')}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

function formatMs(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
