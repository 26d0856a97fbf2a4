// Inline builders for planner tests: Configs, observations and states
// described in a few words. Robots resolve their overrides the way the loader
// does (fleet apps and active unless the robot says otherwise).
import type { AppSpec, Config, RobotSpec, WebhookSpec } from '../../schema/types.js';
import type { HubWebhook } from '../../drivers/hub/types.js';
import type { AppInfo, AppState } from '../../lib/wire/daemon.js';
import type { Observation, RobotObservation } from '../../reconciler/types.js';
import type { StateFile } from '../../state/types.js';
import { webhookSpecHash } from '../../reconciler/hash.js';

export const SECRET = 'hunter2-very-secret-value';

export function webhook(name: string, over: Partial<WebhookSpec> = {}): WebhookSpec {
  return {
    name,
    url: `https://example.org/hooks/${name}`,
    jobId: null,
    watched: [{ type: 'space', name: 'alice/hello_app' }, { type: 'user', name: 'alice' }],
    domains: ['repo'],
    secret: SECRET,
    enabled: true,
    ...over,
  };
}

export function app(name: string, over: Partial<AppSpec> = {}): AppSpec {
  return { name, source: `https://huggingface.co/spaces/alice/${name}`, spaceId: `alice/${name}`, path: null, ...over };
}

export function pathApp(name: string, path = `/work/apps/${name}`): AppSpec {
  return { name, source: null, spaceId: null, path };
}

export interface RobotInput {
  name: string;
  apps?: string[];
  active?: string | null;
  url?: string | null;
  hardwareId?: string | null;
  robotName?: string;
  daemonVersion?: string;
}

export function config(input: { webhooks?: WebhookSpec[]; apps?: AppSpec[]; active?: string | null; robots?: RobotInput[] } = {}): Config {
  const apps = Object.fromEntries((input.apps ?? []).map((a) => [a.name, a]));
  const active = input.active ?? null;
  const robots = Object.fromEntries((input.robots ?? []).map((r, i): [string, RobotSpec] => [r.name, {
    name: r.name,
    url: r.url === undefined ? `http://127.0.0.1:${8000 + i}` : r.url,
    apps: r.apps ?? Object.keys(apps),
    active: r.active === undefined ? active : r.active,
    ...(r.hardwareId === undefined ? {} : { hardwareId: r.hardwareId }),
    ...(r.robotName === undefined ? {} : { robotName: r.robotName }),
    ...(r.daemonVersion === undefined ? {} : { daemonVersion: r.daemonVersion }),
  }]));
  return {
    version: 1,
    file: '/work/robot.yaml',
    hub: { endpoint: 'https://huggingface.co' },
    webhooks: Object.fromEntries((input.webhooks ?? []).map((w) => [w.name, w])),
    apps,
    active,
    robots,
    daemon: { version: null, updateTimeoutMs: 600_000 },
    rollout: { parallelism: 10, canary: 1, maxFailures: { kind: 'count', value: 0 }, healthyForMs: 1500, onFailure: 'rollback' },
    notify: null,
    receiver: null,
  };
}

/** The hub's copy of a spec (as if created from it). */
export function hookOf(id: string, spec: WebhookSpec, over: Partial<HubWebhook> = {}): HubWebhook {
  return {
    id,
    url: spec.url,
    job: spec.jobId === null ? null : { dockerImage: 'ubuntu' },
    jobSourceId: spec.jobId,
    watched: spec.watched.map((w) => ({ ...w })),
    domains: [...spec.domains],
    secret: spec.secret,
    disabled: !spec.enabled,
    ...over,
  };
}

export function installedOf(spec: AppSpec, extra: Record<string, unknown> = {}): AppInfo {
  return spec.path !== null
    ? { name: spec.name, source_kind: 'local', description: '', url: null, extra: { path: spec.path, ...extra } }
    : { name: spec.name, source_kind: 'hf_space', description: '', url: spec.source, extra };
}

export function robotObs(installed: AppInfo[] = [], current: { app: AppInfo; state: AppState } | null = null): RobotObservation {
  return {
    reachable: true,
    daemon: { robot_name: 'reachy_mini', state: 'running', robotctl_simulator: true },
    installed,
    current: current && { info: current.app, state: current.state, error: current.state === 'error' ? 'Process exited with code 1' : null },
  };
}

export function observation(input: { hooks?: HubWebhook[]; hubError?: string; robots?: Record<string, RobotObservation>; spaces?: Record<string, string | null> } = {}): Observation {
  return {
    hub: input.hubError ? { ok: false, error: input.hubError } : { ok: true, webhooks: input.hooks ?? [] },
    spaces: Object.fromEntries(Object.entries(input.spaces ?? {}).map(([k, sha]) => [k, { sha }])),
    robots: input.robots ?? {},
  };
}

export function state(input: { webhooks?: Record<string, { id: string; spec: WebhookSpec }>; apps?: Record<string, Record<string, AppSpec & { sha?: string | null }>> } = {}): StateFile {
  const webhooks = Object.fromEntries(Object.entries(input.webhooks ?? {}).map(([n, w]) => [n, { id: w.id, specHash: webhookSpecHash(w.spec) }]));
  const robots = Object.fromEntries(Object.entries(input.apps ?? {}).map(([robot, apps]) => [robot, {
    apps: Object.fromEntries(Object.entries(apps).map(([a, s]) => [a, { source: s.source, path: s.path, sha: s.sha ?? null }])),
  }]));
  return { version: 1, lineage: 'test-lineage', serial: 1, webhooks, robots };
}
