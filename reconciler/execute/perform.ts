import type { Config } from '../../schema/types.js';
import { WEBHOOK_DOMAINS } from '../../lib/wire/hub.js';
import type { HubClient, WebhookInput } from '../../drivers/hub/types.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { ActionResult } from '../../state/types.js';
import { daemonName, type Action, type InstallAction, type RobotAction, type RobotAddress, type UpdateAppAction, type WebhookAction } from '../types.js';
import { robotAddress } from '../robot-address.js';
import { renameRobot, updateDaemon } from './daemon-update.js';
import { TerminalError, isDaemonCode, isHubNotFound } from './errors.js';
import { startAndSettle } from './start.js';
import type { GateProgress } from './health-gate.js';

// One action, through the drivers. The only place the executor touches the
// world. Clear secrets come from the Config by webhook name (actions never
// carry them). Idempotent where the remote side allows it: deleting a gone
// webhook, stopping when nothing runs, removing a missing app all succeed.

export interface PerformContext {
  config: Config;
  hub: HubClient | null;
  daemon: (robot: RobotAddress) => DaemonClient;
  /** Where mDNS found the robots declared by hardware_id alone (Plan.located). */
  located: Record<string, string>;
  /** The health gate: how long a started app must run, healthy, for its start to count (ms). */
  healthyForMs: number;
  /** Told as a started app's health gate runs (the fleet page's "checking health (4 s of 10)"). */
  onGate?: (robot: string, p: GateProgress) => void;
  /** Each line an action's job logs as it runs (a daemon update's). */
  onLog?: (action: Action, line: string) => void;
}

export interface Performed {
  result: ActionResult;
  /** Shown after the outcome, e.g. `(id 65f…)`. */
  detail: string;
}

export async function performAction(action: Action, ctx: PerformContext, signal: AbortSignal): Promise<Performed> {
  return 'robot' in action ? performRobot(action, ctx, signal) : performWebhook(action, ctx, signal);
}

async function performWebhook(action: WebhookAction, ctx: PerformContext, signal: AbortSignal): Promise<Performed> {
  const hub = ctx.hub;
  if (!hub) throw new TerminalError('no hub client (not logged in)');
  switch (action.type) {
    case 'create': {
      const spec = specOf(ctx.config, action.name);
      const created = await hub.createWebhook(webhookInput(spec), signal);
      // The hub creates webhooks enabled.
      if (!spec.enabled) await hub.disableWebhook(created.id, signal);
      return { result: { webhookId: created.id }, detail: `(id ${created.id})` };
    }
    case 'update': {
      const spec = specOf(ctx.config, action.name);
      const input: Partial<WebhookInput> & { watched: WebhookInput['watched'] } = { ...webhookInput(spec) };
      if (!action.secretChanged) delete input.secret;
      else if (spec.secret === null) input.secret = '';
      await hub.updateWebhook(action.id, input, signal);
      return { result: {}, detail: `(id ${action.id})` };
    }
    case 'enable':
      await hub.enableWebhook(action.id, signal);
      return { result: {}, detail: `(id ${action.id})` };
    case 'disable':
      await hub.disableWebhook(action.id, signal);
      return { result: {}, detail: `(id ${action.id})` };
    case 'delete':
      try {
        await hub.deleteWebhook(action.id, signal);
      } catch (err) {
        if (!isHubNotFound(err)) throw err;
      }
      return { result: {}, detail: `(id ${action.id})` };
    case 'adopt':
      return { result: { webhookId: action.id }, detail: `(id ${action.id})` };
  }
}

function specOf(config: Config, name: string) {
  const spec = config.webhooks[name];
  if (!spec) throw new TerminalError(`webhook ${name} is not in robot.yaml any more: make a new plan`);
  return spec;
}

function webhookInput(spec: Config['webhooks'][string]): WebhookInput {
  const input: WebhookInput = { watched: spec.watched.map((w) => ({ ...w })) };
  // An empty list means "every domain": say so explicitly so an update really widens it.
  input.domains = spec.domains.length > 0 ? [...spec.domains] : [...WEBHOOK_DOMAINS];
  if (spec.secret !== null) input.secret = spec.secret;
  if (spec.url !== null) input.url = spec.url;
  else if (spec.jobId !== null) input.jobSourceId = spec.jobId;
  return input;
}

/** The daemon client of a robot of the plan. */
export function robotDaemon(ctx: Pick<PerformContext, 'config' | 'daemon' | 'located'>, name: string): DaemonClient {
  const robot = ctx.config.robots[name];
  if (!robot) throw new TerminalError(`robot ${name} is not in robot.yaml any more: make a new plan`);
  const at = robotAddress(robot, ctx.located);
  if (!at) throw new TerminalError(`robot ${name} has no url and was not found over mDNS: make a new plan`);
  return ctx.daemon(at);
}

async function performRobot(action: RobotAction, ctx: PerformContext, signal: AbortSignal): Promise<Performed> {
  const daemon = robotDaemon(ctx, action.robot);
  if (action.type === 'startup_app') {
    await daemon.setStartupApp(action.name, signal);
    return { result: {}, detail: '' };
  }
  if (action.type === 'update_daemon') {
    return updateDaemon(daemon, action, {
      timeoutMs: ctx.config.daemon.updateTimeoutMs, healthyForMs: ctx.healthyForMs, signal,
      onLog: (line) => ctx.onLog?.(action, line), onGate: (p) => ctx.onGate?.(action.robot, p),
    });
  }
  if (action.type === 'rename_robot') return renameRobot(daemon, action, signal);
  const name = daemonName(action);
  switch (action.type) {
    case 'install':
      return installConfirmed(daemon, action, signal);
    case 'update_app':
      // A new revision, or a rollback's (robotctl's simulator takes extra.revision: rollback.ts), is installed
      // over the app: the daemon's update would reinstall every dependency (docs/decisions.md, bench/redeploy-calls).
      if (action.cause === 'source') await removeQuietly(daemon, name, signal);
      return installConfirmed(daemon, action, signal);
    case 'adopt_app':
      return { result: {}, detail: '' }; // found installed at plan time: only the state changes
    case 'remove':
      await removeQuietly(daemon, name, signal);
      return { result: {}, detail: '' };
    case 'start':
      await startAndSettle(daemon, name, {
        healthyForMs: ctx.healthyForMs,
        ...(ctx.onGate ? { onGate: (p: GateProgress) => ctx.onGate?.(action.robot, p) } : {}),
      }, signal);
      return { result: {}, detail: '' };
    case 'stop':
      await stopQuietly(daemon, signal);
      return { result: {}, detail: '' };
  }
}

/**
 * Installs, then reads the robot's installed list: the install counts only
 * when the app is there under the name the plan expects (issue 30.3); else
 * the action fails naming what the robot did install. The revision recorded
 * is the one the daemon reports, when it does (the Space may have moved).
 */
async function installConfirmed(daemon: DaemonClient, action: InstallAction | UpdateAppAction, signal: AbortSignal): Promise<Performed> {
  const name = daemonName(action);
  const before = new Set((await daemon.listInstalled(signal)).map((a) => a.name));
  await daemon.install(action.info, { signal });
  const list = await daemon.listInstalled(signal);
  const found = list.find((a) => a.name === name);
  if (!found) {
    const added = list.map((a) => a.name).filter((n) => !before.has(n));
    const what = added.length > 0 ? `it installed ${added.map((n) => `'${n}'`).join(', ')}` : `its installed apps are ${list.map((a) => `'${a.name}'`).join(', ') || 'none'}`;
    throw new TerminalError(`the robot reported the install done, but lists no app '${name}': ${what}`);
  }
  if (action.record.source === null) return { result: {}, detail: '' }; // a local folder has no revision
  const sha = typeof found.extra.installed_sha === 'string' ? found.extra.installed_sha : typeof found.extra.sha === 'string' ? found.extra.sha : undefined;
  return { result: sha === undefined ? {} : { sha }, detail: sha ? `(${sha.slice(0, 7)})` : '' };
}

async function removeQuietly(daemon: DaemonClient, app: string, signal: AbortSignal): Promise<void> {
  try {
    await daemon.remove(app, { signal });
  } catch (err) {
    if (!isDaemonCode(err, 'not_installed', 'app_not_found')) throw err;
  }
}

export async function stopQuietly(daemon: DaemonClient, signal: AbortSignal): Promise<void> {
  try {
    await daemon.stopCurrentApp(signal);
  } catch (err) {
    if (!isDaemonCode(err, 'no_app_running')) throw err;
  }
}
