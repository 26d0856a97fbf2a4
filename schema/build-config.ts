import { resolve } from 'node:path';
import type { AppSpec, Config, DaemonSpec, MaxFailures, NotifySpec, ReceiverAction, ReceiverSpec, RobotSpec, RolloutSpec, WebhookSpec } from './types.js';
import { watchedTypeBefore, type WatchedItem, type WatchedType, type WebhookDomain } from '../lib/wire/hub.js';
import { entries, has, record, type Data } from './rules-util.js';
import { spaceIdFromUrl } from '../lib/space-id.js';
import { durationMs } from '../lib/duration.js';
import { DEFAULT_RECEIVER_PORT } from '../lib/receiver-port.js';

// Turn a document that passed the schema and the rules into the resolved
// Config: defaults applied, short forms expanded, overrides merged.

/** rollout.healthy_for's default: an app that crashes within 10 s of its start fails its robot. */
const DEFAULT_HEALTHY_FOR_MS = 10_000;

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** `root` is consumed: its `webhooks` mapping becomes the Config's (webhookSpecs). */
export function buildConfig(root: Data, file: string, baseDir: string, env: NodeJS.ProcessEnv): Config {
  const apps = Object.fromEntries(entries(root.apps).map(([name, a]) => [name, appSpec(name, a, baseDir)]));
  const active = str(root.active);
  const fileEndpoint = str(record(root.hub)?.endpoint);
  const daemon = daemonSpec(record(root.daemon) ?? {});
  return {
    version: 1,
    file,
    hub: { endpoint: trimSlash(env.HF_ENDPOINT || fileEndpoint || DEFAULT_ENDPOINT) },
    webhooks: webhookSpecs(root.webhooks),
    apps,
    active,
    ...(has(root, 'startup_app') ? { startupApp: str(root.startup_app) } : {}),
    robots: Object.fromEntries(entries(root.robots).map(([name, r]) => [name, robotSpec(name, r, Object.keys(apps), active, root, daemon.version)])),
    daemon,
    rollout: rolloutSpec(record(root.rollout) ?? {}),
    notify: notifySpec(record(root.notify)),
    receiver: receiverSpec(record(root.receiver)),
    stateBlock: record(root.state) ?? null,
  };
}

/** `space:alice/app` or {type, name} → {type, name}. */
export function watchedItem(item: unknown): WatchedItem {
  if (typeof item === 'string') {
    const colon = item.indexOf(':');
    // The type as the shared constant: no five-letter copy per item of 50,000 webhooks.
    const type = watchedTypeBefore(item, colon) ?? item.slice(0, colon);
    return { type: type as WatchedType, name: item.slice(colon + 1) };
  }
  const d = record(item) ?? {};
  return { type: d.type as WatchedType, name: String(d.name) };
}

// One pass over the loader's own `webhooks` mapping, each value replaced by
// its spec in place: a file may declare 50,000 webhooks, and a second
// mapping of 50,000 names cost more than the specs (its inserts, then the
// first one's garbage). The loader's data is never read after this, so a
// spec keeps the loader's lists too (watched turned into items in place):
// no copy of two arrays per webhook. Nothing changes a spec's lists later.
function webhookSpecs(v: unknown): Record<string, WebhookSpec> {
  const r = record(v);
  if (!r) return {};
  const out = r as Record<string, unknown>;
  for (const name of Object.keys(r)) {
    const w = record(r[name]);
    if (w) out[name] = webhookSpec(name, w);
    else delete out[name];
  }
  return out as Record<string, WebhookSpec>;
}

/** Sorted, each once (the schema allows a repeat; the hub would keep one). */
function uniqueSorted(domains: WebhookDomain[]): WebhookDomain[] {
  if (domains.length < 2) return domains;
  return [...new Set(domains)].sort();
}

function watchedItems(list: unknown[]): WatchedItem[] {
  for (let i = 0; i < list.length; i++) list[i] = watchedItem(list[i]);
  return list as WatchedItem[];
}

function webhookSpec(name: string, w: Data): WebhookSpec {
  const domains = Array.isArray(w.domains) ? (w.domains as WebhookDomain[]) : [];
  return {
    name,
    url: str(w.url),
    jobId: str(w.job_id),
    watched: Array.isArray(w.watched) ? watchedItems(w.watched) : [],
    domains: uniqueSorted(domains),
    secret: str(w.secret),
    enabled: w.enabled !== false,
  };
}

function appSpec(name: string, a: Data, baseDir: string): AppSpec {
  const source = str(a.source);
  const path = str(a.path);
  return { name, source, spaceId: source ? spaceIdFromUrl(source) : null, path: path === null ? null : resolve(baseDir, path) };
}

function robotSpec(name: string, r: Data, allApps: string[], fleetActive: string | null, root: Data, fleetDaemon: string | null): RobotSpec {
  const apps = Array.isArray(r.apps) ? r.apps.map(String) : [...allApps];
  const active = has(r, 'active') ? str(r.active) : fleetActive;
  const startup = has(r, 'startup_app') ? r : has(root, 'startup_app') ? root : null;
  return {
    name, url: typeof r.url === 'string' ? trimSlash(r.url) : null, apps, active,
    ...(startup ? { startupApp: str(startup.startup_app) } : {}),
    ...(has(r, 'hardware_id') ? { hardwareId: str(r.hardware_id) } : {}),
    ...(typeof r.robot_name === 'string' ? { robotName: r.robot_name } : {}),
    ...daemonVersionOf(str(record(r.daemon)?.version) ?? fleetDaemon),
  };
}

function daemonVersionOf(v: string | null): { daemonVersion?: string } {
  return v === null ? {} : { daemonVersion: v };
}

/** daemon.update_timeout's default: a real robot's update and reboot take minutes. */
export const DEFAULT_UPDATE_TIMEOUT_MS = 600_000;

function daemonSpec(d: Data): DaemonSpec {
  return { version: str(d.version), updateTimeoutMs: durationMs(d.update_timeout) ?? DEFAULT_UPDATE_TIMEOUT_MS };
}

function rolloutSpec(r: Data): RolloutSpec {
  return {
    parallelism: typeof r.parallelism === 'number' ? r.parallelism : 10,
    canary: typeof r.canary === 'number' ? r.canary : null,
    maxFailures: maxFailures(r.max_failures),
    // min_ready is healthy_for's old name (load.ts warns about it).
    healthyForMs: durationMs(r.healthy_for) ?? durationMs(r.min_ready) ?? DEFAULT_HEALTHY_FOR_MS,
    onFailure: r.on_failure === 'stop' ? 'stop' : 'rollback',
  };
}

function notifySpec(n: Data | undefined): NotifySpec | null {
  if (!n) return null;
  return { webhook: str(n.webhook), secret: str(n.secret), discussion: n.discussion === true };
}

export function maxFailures(v: unknown): MaxFailures {
  if (typeof v === 'string') return { kind: 'percent', value: parseFloat(v) };
  return { kind: 'count', value: typeof v === 'number' ? v : 0 };
}

function receiverSpec(r: Data | undefined): ReceiverSpec | null {
  if (!r) return null;
  const secrets = typeof r.secret === 'string' ? [r.secret] : Array.isArray(r.secret) ? r.secret.map(String) : [];
  return {
    port: typeof r.port === 'number' ? r.port : DEFAULT_RECEIVER_PORT,
    secrets,
    endpoints: entries(r.endpoints).map(([name, e]) => ({ name, action: e.action as ReceiverAction, app: str(e.app) })),
  };
}
