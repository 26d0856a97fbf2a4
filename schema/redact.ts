import type { Config, MaxFailures } from './types.js';
import { SENSITIVE } from '../lib/sensitive.js';

// The resolved config as plain data, in robot.yaml's own vocabulary, with
// every secret replaced: safe to print (validate --print) or log.

export function redactedConfig(config: Config): unknown {
  return {
    version: config.version,
    file: config.file,
    hub: { endpoint: config.hub.endpoint },
    webhooks: mapValues(config.webhooks, (w) => ({
      url: w.url,
      job_id: w.jobId,
      watched: w.watched.map((i) => ({ type: i.type, name: i.name })),
      domains: [...w.domains],
      secret: w.secret === null ? null : SENSITIVE,
      enabled: w.enabled,
    })),
    apps: mapValues(config.apps, (a) => ({ source: a.source, space_id: a.spaceId, path: a.path })),
    active: config.active,
    robots: mapValues(config.robots, (r) => ({
      url: r.url, apps: [...r.apps], active: r.active,
      ...(r.hardwareId !== undefined ? { hardware_id: r.hardwareId } : {}),
      ...(r.robotName !== undefined ? { robot_name: r.robotName } : {}),
    })),
    rollout: {
      parallelism: config.rollout.parallelism,
      canary: config.rollout.canary,
      max_failures: maxFailuresView(config.rollout.maxFailures),
      healthy_for_ms: config.rollout.healthyForMs,
      on_failure: config.rollout.onFailure,
    },
    notify: config.notify && {
      webhook: config.notify.webhook,
      secret: config.notify.secret === null ? null : SENSITIVE,
      discussion: config.notify.discussion,
    },
    receiver: config.receiver && {
      port: config.receiver.port,
      secrets: config.receiver.secrets.map(() => SENSITIVE),
      endpoints: Object.fromEntries(config.receiver.endpoints.map((e) => [e.name, { action: e.action, app: e.app }])),
    },
  };
}

function maxFailuresView(m: MaxFailures): number | string {
  return m.kind === 'percent' ? `${m.value}%` : m.value;
}

function mapValues<T, U>(rec: Record<string, T>, fn: (v: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, fn(v)]));
}
