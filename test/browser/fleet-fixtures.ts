// AgentStatus documents for the fleet page tests: two simulated robots, one
// drifting then healed by the agent.
import type { AgentStatus, RobotStatus } from '../../reconciler/agent/status-types.js';

const at = (offsetMs: number): string => new Date(Date.now() + offsetMs).toISOString();

export const HELLO_SHA = '3f5c2a9e0b7d41c6a8e2f1d0c9b8a7e6f5d4c3b2';

/** Where the fleet's robots are; a test with a real simulated daemon points desk at it (the live drawing). */
export const robotUrls = { desk: 'http://127.0.0.1:18001', 'lab-1': 'http://127.0.0.1:18002' };

function robot(name: keyof typeof robotUrls, over: Partial<RobotStatus> = {}): RobotStatus {
  const url = robotUrls[name];
  return {
    name, url, located: false, dashboard: `${url}/`, reachable: true, error: null,
    daemon: 'running', daemon_version: '1.10.0', declared_daemon_version: null, daemon_update_to: null,
    robot_name: name, hardware_id: `${name === 'desk' ? 'a1' : 'b2'}c4e5f60718293a`, startup_app: null, installed: ['dev_app', 'hello_app'], revisions: { hello_app: HELLO_SHA, dev_app: null },
    active: 'hello_app', running: 'hello_app', app_state: 'running',
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
    robots: [robot('desk'), robot('lab-1')],
    last_run: null,
    deliveries: [],
    drift: false,
    config_error: null,
    receiver: { endpoints: [{ path: '/webhooks/redeploy-apps', action: 'reconcile' }] },
    runs: [],
    rollout: null,
  };
}

/** lab-1 lost its app and stopped: drift found by the interval check. */
export function drifted(): AgentStatus {
  const s = base();
  // Issue 30: its app crashed (the exception, in the robot's words), the install failed (pip's line), its startup app.
  s.robots[1] = robot('lab-1', { installed: ['hello_app'], revisions: { hello_app: HELLO_SHA }, running: 'hello_app', app_state: 'error', converged: false,
    app_error: 'RuntimeError: hello_app boom on purpose', app_traceback: ['Traceback (most recent call last):', 'RuntimeError: hello_app boom on purpose'],
    error: "install failed: install failed: ERROR: Package 'dev-app' requires a different Python: 3.11.7 not in '>=3.99'", startup_app: 'hello_app',
    drift: ['app dev_app: not installed', 'active hello_app: not running'] });
  s.drift = true;
  s.last_run = { trigger: 'interval', started_at: at(-2000), finished_at: at(-1500), result: 'drift', actions: [] };
  s.runs = [s.last_run];
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
  s.runs = [s.last_run, ...drifted().runs];
  s.rollout = { id: 'r-1', result: 'converged', failures: 0, max_failures: 1, halted: false, waves: [
    { name: 'rest', robots: [{ name: 'lab-1', state: 'ok', done: 2, total: 2, phase: null, health: null }] },
  ] };
  return s;
}

/** An apply in progress: desk (the canary) done, lab-1 installing; one failure allowed. */
export function rolling(): AgentStatus {
  const s = healed();
  s.last_run = { trigger: 'file', started_at: at(-3000), finished_at: null, result: 'running', actions: [] };
  s.rollout = { id: 'r-2', result: 'running', failures: 0, max_failures: 1, halted: false, waves: [
    { name: 'canary', robots: [{ name: 'desk', state: 'ok', done: 2, total: 2, phase: null, health: null }] },
    { name: 'rest', robots: [{ name: 'lab-1', state: 'running', done: 1, total: 3, phase: 'checking_health', health: { healthy_ms: 4000, healthy_for_ms: 10_000 } }] },
  ] };
  return s;
}

/** A daemon update rolling out (issue 31): desk (the canary) is on 1.10.0, lab-1 is updating, its job's last lines shown. */
export function updatingDaemons(): AgentStatus {
  const s = healed();
  s.last_run = { trigger: 'file', started_at: at(-4000), finished_at: null, result: 'running', actions: [] };
  s.robots[0] = robot('desk', { robot_name: 'Desk one', startup_app: 'hello_app', declared_daemon_version: '1.10.0' });
  s.robots[1] = robot('lab-1', { daemon_version: '1.9.0', declared_daemon_version: '1.10.0', daemon_update_to: '1.10.0', converged: false, drift: ['update daemon 1.9.0 → 1.10.0: robot.yaml says 1.10.0'] });
  s.rollout = { id: 'r-3', result: 'running', failures: 0, max_failures: 0, halted: false, waves: [
    { name: 'canary', robots: [{ name: 'desk', state: 'ok', done: 2, total: 2, phase: null, health: null }] },
    { name: 'rest', robots: [{ name: 'lab-1', state: 'running', done: 0, total: 2, phase: 'updating_daemon', health: null, step: 'update daemon 1.9.0 → 1.10.0', log: [
      '    Found existing installation: reachy-mini 1.9.0', 'Successfully installed reachy-mini-1.10.0', 'Updating apps_venv SDK...', 'Running: sudo systemctl restart reachy-mini-daemon',
    ] }] },
  ] };
  return s;
}

/** robot.yaml was saved broken: the agent keeps the last good version, the fleet itself converged. */
export function brokenFile(): AgentStatus {
  const s = healed();
  s.config_error = 'robot.yaml:4:3: apps.hello_app: unknown key \'sorce\'';
  return s;
}
