import type { Config, RobotSpec } from '../../schema/types.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { resolveEndpoint } from '../../drivers/hub/endpoint.js';
import type { HubClient } from '../../drivers/hub/types.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { AgentDrivers } from '../../reconciler/agent/reconcile.js';

// The agent's drivers for whatever robot.yaml says now: a reload may point a
// robot at another URL or the hub elsewhere, so clients are cached by URL
// (not by name) and all closed together at the end.

export interface DriverPool {
  forConfig(config: Config): AgentDrivers;
  close(): Promise<void>;
}

export function driverPool(env: NodeJS.ProcessEnv, token: string | null, listWebhooks: (config: Config) => boolean): DriverPool {
  const hubs = new Map<string, HubClient>();
  const daemons = new Map<string, DaemonClient>();
  const hubFor = (endpoint: string): HubClient => {
    let hub = hubs.get(endpoint);
    if (!hub) {
      hub = createHubClient({ endpoint, token, userAgent: 'robotctl-agent' });
      hubs.set(endpoint, hub);
    }
    return hub;
  };
  const daemon = (robot: RobotSpec): DaemonClient => {
    let client = daemons.get(robot.url);
    if (!client) {
      client = createDaemonClient({ baseUrl: robot.url, timeoutMs: 10_000 });
      daemons.set(robot.url, client);
    }
    return client;
  };
  return {
    forConfig: (config) => ({ hub: hubFor(resolveEndpoint(env, config.hub.endpoint)), daemon, listWebhooks: listWebhooks(config) }),
    close: async () => {
      await Promise.allSettled([...hubs.values(), ...daemons.values()].map((c) => c.close()));
      hubs.clear();
      daemons.clear();
    },
  };
}
