import type { Io } from '../../lib/io.js';
import { UserError } from '../../lib/errors.js';
import type { CommandLine } from '../../lib/command-line.js';
import type { Config } from '../../schema/types.js';
import type { RobotAddress } from '../../reconciler/types.js';
import { locateByHardwareId } from './locate.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { resolveEndpoint } from '../../drivers/hub/endpoint.js';
import type { ResolvedToken } from '../../drivers/hub/token.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import { ROBOTS_KEPT_OPEN, RobotPool } from '../../drivers/daemon/pool.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { AgentDrivers } from '../../reconciler/agent/reconcile.js';
import type { NotifySender } from '../../drivers/notify/webhook.js';

// The drivers of every reconciling command and of the agent, for whatever
// robot.yaml says now: a reload may point a robot at another URL or the hub
// elsewhere, so clients are cached by URL (not by name) and all closed
// together at the end. Every robot client shares one bounded RobotPool of
// connections: file descriptors grow with parallelism, not with the fleet.

export interface HubAccess {
  token: string | null;
  /** Whether observing this config lists the account's webhooks. */
  listWebhooks: (config: Config) => boolean;
}

/**
 * The hub token `found` (resolveToken: --token or --token-file, HF_TOKEN, token files). A file that declares or
 * owns webhooks needs one; a robots-only file without a token skips the hub.
 */
export function hubAccess(found: ResolvedToken | null, ownsWebhooks: boolean, config: Config, command: CommandLine): HubAccess {
  // The file's webhooks are counted only without a token.
  const needsHub = (c: Config): boolean => ownsWebhooks || Object.keys(c.webhooks).length > 0;
  if (!found && needsHub(config)) {
    throw new UserError(`Not logged in to the hub: run \`${command('auth login')}\`, set HF_TOKEN, or pass --token-file (robot.yaml declares webhooks).`);
  }
  return { token: found?.token ?? null, listWebhooks: (c) => found !== null || needsHub(c) };
}

export interface DriverPool {
  forConfig(config: Config): AgentDrivers;
  close(): Promise<void>;
}

export interface DriverPoolOptions {
  userAgent?: string;
  /**
   * Robots worked on at once (an apply's --parallelism or rollout.parallelism):
   * their connections are all kept open, beyond the ROBOTS_KEPT_OPEN a drift check keeps.
   */
  robotsAtOnce?: number;
}

export function driverPool(env: NodeJS.ProcessEnv, token: string | null, listWebhooks: (config: Config) => boolean, opts: DriverPoolOptions = {}): DriverPool {
  const { userAgent } = opts;
  const hubs = new Map<string, HubClient>();
  const daemons = new Map<string, DaemonClient>();
  const connections = new RobotPool({ origins: Math.max(ROBOTS_KEPT_OPEN, opts.robotsAtOnce ?? 0) });
  const notify = lazyNotifySender(userAgent);
  const hubFor = (endpoint: string): HubClient => {
    let hub = hubs.get(endpoint);
    if (!hub) {
      hub = createHubClient({ endpoint, token, ...(userAgent ? { userAgent } : {}) });
      hubs.set(endpoint, hub);
    }
    return hub;
  };
  const daemon = (robot: RobotAddress): DaemonClient => {
    let client = daemons.get(robot.url);
    if (!client) {
      client = createDaemonClient({ baseUrl: robot.url, timeoutMs: 10_000, dispatcher: connections, ...(userAgent ? { userAgent } : {}) });
      daemons.set(robot.url, client);
    }
    return client;
  };
  return {
    forConfig: (config) => ({ hub: hubFor(resolveEndpoint(env, config.hub.endpoint)), daemon, locate: locateByHardwareId, listWebhooks: listWebhooks(config), notify }),
    close: async () => {
      await Promise.allSettled([...hubs.values(), ...daemons.values(), notify].map((c) => c.close()));
      await connections.close();
      hubs.clear();
      daemons.clear();
    },
  };
}

/** The notify webhook's sender, made (and undici's client loaded) on the first notice: most runs send none. */
function lazyNotifySender(userAgent: string | undefined): NotifySender {
  let made: Promise<NotifySender> | null = null;
  const sender = (): Promise<NotifySender> => (made ??= import('../../drivers/notify/webhook.js').then(({ createNotifySender }) =>
    createNotifySender({ userAgent: userAgent ?? 'robotctl' })));
  return {
    post: async (url, body, secret, signal) => (await sender()).post(url, body, secret, signal),
    close: async () => { if (made) await (await made).close(); },
  };
}
