import type { Config } from '../schema/types.js';
import type { HubWebhook } from '../drivers/hub/types.js';
import type { AppInfo } from '../lib/wire/daemon.js';
import type { Observation, RobotObservation } from './types.js';
import { canonicalJson, secretFingerprint, sha256, webhookSpecHash } from './hash.js';
import { releaseNumber } from '../lib/release-version.js';

// Fingerprints of the inputs a plan was made from. A saved plan is applied
// only if a fresh observation has the same digest. Order-insensitive where
// the remote side does not promise an order. A secret enters only as its
// salted, stretched fingerprint (hash.ts), and a hub secret only when it is
// one robot.yaml uses: another value cannot change what the plan does.
// Known shapes become fixed-order arrays: cheap to serialise at 10k items.

export function observationDigest(observed: Observation, desired: Config, salt: string): string {
  const known = new Set<string>();
  for (const spec of Object.values(desired.webhooks)) if (spec.secret) known.add(spec.secret);
  const secret = (value: string | null | undefined): string | null => {
    if (!value) return null;
    return known.has(value) ? secretFingerprint(value, salt) : 'another secret';
  };
  const hub = observed.hub.ok ? [...observed.hub.webhooks].sort(byId).map((h) => hookTuple(h, secret(h.secret))) : false;
  const spaces = Object.keys(observed.spaces).sort().map((k) => [k, observed.spaces[k]?.sha ?? null]);
  const robots = Object.keys(observed.robots).sort().map((k) => [k, robotTuple(observed.robots[k])]);
  return `sha256:${sha256(JSON.stringify(['v1', hub, spaces, robots]))}`;
}

/** `specHashes`: the planner's hashes, in `Object.keys(desired.webhooks)` order (computed here when absent). */
export function desiredDigest(desired: Config, salt: string, specHashes?: readonly string[]): string {
  const webhooks = Object.keys(desired.webhooks).map((name, i) => {
    const spec = desired.webhooks[name];
    const secret = spec?.secret ? secretFingerprint(spec.secret, salt) : null;
    return [name, specHashes?.[i] ?? (spec ? webhookSpecHash(spec) : null), secret] as const;
  });
  webhooks.sort((a, b) => byText(a[0], b[0]));
  return `sha256:${sha256(canonicalJson({ webhooks, apps: desired.apps, robots: desired.robots }))}`;
}

/** Code-unit order, as Object.keys(...).sort() gives: the digest must not depend on the locale. */
function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byId(a: HubWebhook, b: HubWebhook): number {
  return byText(a.id, b.id);
}

function hookTuple(h: HubWebhook, secret: string | null): unknown[] {
  const watched = h.watched.map((w) => `${w.type}:${w.name}`);
  const job = h.job === null ? null : canonicalJson(h.job);
  return [h.id, h.url ?? null, job, h.jobSourceId ?? null, watched, h.domains, secret, h.disabled];
}

function appTuple(a: AppInfo): unknown[] {
  const extra = Object.keys(a.extra).length === 0 ? null : canonicalJson(a.extra);
  return [a.name, a.source_kind, a.url ?? null, extra];
}

function robotTuple(robot: RobotObservation | undefined): unknown {
  // Errors and daemon chatter (uptime, state details) would make every plan stale.
  if (!robot?.reachable) return false;
  const installed = [...robot.installed].sort((x, y) => byText(x.name, y.name)).map(appTuple);
  const current = robot.current ? [robot.current.info.name, robot.current.state] : null;
  const tuple: unknown[] = robot.startupApp === undefined ? [installed, current] : [installed, current, robot.startupApp];
  if (!robot.daemon) return tuple;
  // What the robot itself is steers the plan (identity, release number, name): a saved plan is stale once it changed.
  const d = robot.daemon;
  const release = typeof d.version === 'string' ? releaseNumber(d.version) ?? d.version : null;
  return [...tuple, [d.hardware_id ?? null, d.robot_name ?? null, release, robot.latestDaemon ?? null]];
}
