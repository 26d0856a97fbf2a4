// AgentStatus documents for the fleet page tests: two simulated robots, one
// drifting then healed by the agent.
import type { AgentStatus, RobotStatus } from '../../reconciler/agent/status-types.js';

const at = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString();

function robot(name: string, port: number, over: Partial<RobotStatus> = {}): RobotStatus {
  const url = `http://127.0.0.1:${port}`;
  return {
    name, url, dashboard: `${url}/`, reachable: true, error: null,
    daemon: 'running', installed: ['hello_app', 'dev_app'], active: 'hello_app', running: 'hello_app', app_state: 'running',
    converged: true, drift: [], ...over,
  };
}

function base(): AgentStatus {
  return {
    format_version: '2.0', generated_at: at(0), file: '/home/alice/robot.yaml', mode: 'heal', interval_ms: 30_000,
    hub: {
      endpoint: 'http://127.0.0.1:9', reachable: true, error: null, unmanaged_webhooks: 0,
      webhooks: [{ name: 'redeploy-apps', id: '6650f0c1a2b3c4d5e6f70812', url: 'http://127.0.0.1:7860/webhooks/redeploy-apps', enabled: true, state: 'converged', drift: [] }],
    },
    robots: [robot('desk', 18001), robot('lab-1', 18002)],
    last_run: null,
    deliveries: [],
    drift: false,
    config_error: null,
  };
}

/** lab-1 lost its app and stopped: drift found by the interval check. */
export function drifted(): AgentStatus {
  const s = base();
  s.robots[1] = robot('lab-1', 18002, { installed: ['hello_app'], running: null, app_state: null, converged: false,
    drift: ['app dev_app: not installed', 'active hello_app: not running'] });
  s.drift = true;
  s.last_run = { trigger: 'interval', started_at: at(-2000), finished_at: at(-1500), result: 'drift', actions: [] };
  s.deliveries = [{ at: at(-60_000), endpoint: '/webhooks/redeploy-apps', event: 'repo.content/update', repo: 'space:alice/hello_app',
    status: 200, outcome: 'ok', error: null, action: 'reinstalled hello_app on desk, lab-1' }];
  return s;
}

/** The agent healed lab-1: its apply installed dev_app and started hello_app. */
export function healed(): AgentStatus {
  const s = base();
  s.last_run = { trigger: 'interval', started_at: at(-1000), finished_at: at(-200), result: 'converged', actions: [
    { address: 'robots.lab-1.apps.dev_app', kind: 'install', outcome: 'ok', error: null, duration_ms: 850 },
    { address: 'robots.lab-1.active', kind: 'start', outcome: 'ok', error: null, duration_ms: 120 },
  ] };
  s.deliveries = [
    { at: at(-500), endpoint: '/webhooks/redeploy-apps', event: 'repo/update', repo: 'space:alice/other', status: 401, outcome: 'rejected',
      error: 'Invalid X-Webhook-Secret', action: null },
    ...drifted().deliveries,
  ];
  return s;
}
