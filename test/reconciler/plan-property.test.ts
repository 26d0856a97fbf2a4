import t from 'tap';
import fc from 'fast-check';
import { plan } from '../../reconciler/plan.js';
import { simulateApply, applyPlanToObservation } from '../../reconciler/simulate.js';
import { webhookSpecHash } from '../../reconciler/hash.js';
import type { AppSpec, Config, WebhookSpec } from '../../schema/types.js';
import type { WatchedItem, WebhookDomain } from '../../lib/wire/hub.js';
import type { HubWebhook } from '../../drivers/hub/types.js';
import type { AppInfo, AppState } from '../../lib/wire/daemon.js';
import { isWebhookAction, type Observation, type RobotObservation } from '../../reconciler/types.js';
import type { StateFile } from '../../state/types.js';
import { app, config, pathApp } from './plan-fixtures.js';

// Property: for any desired config, observation and state, applying the plan
// (as modelled by simulateApply, state via nextState) leaves nothing to do.

const WATCHED: WatchedItem[] = [
  { type: 'space', name: 'alice/a' }, { type: 'user', name: 'alice' }, { type: 'org', name: 'pollen' }, { type: 'model', name: 'bob/m' },
];
const DOMAINS: WebhookDomain[] = ['repo', 'discussion'];
const HOOK_NAMES = ['a', 'b', 'c', 'd'];
const IDS = ['1', '2', '3', '4', '5', '6'];
const APPS: AppSpec[] = [app('a1'), app('a2'), pathApp('p1'), app('a3', { source: 'https://huggingface.co/spaces/bob/a3', spaceId: 'bob/a3' })];
const ROBOTS = ['r1', 'r2', 'r3'];

const url = fc.constantFrom('https://x.example.org/1', 'https://x.example.org/2');
const secret = fc.constantFrom(null, 's1', 's2', '');
const target = fc.oneof(
  url.map((u) => ({ url: u as string | null, jobId: null as string | null })),
  fc.constantFrom('job-1', 'job-2').map((j) => ({ url: null as string | null, jobId: j as string | null })),
);

const specFields = fc.record({
  target,
  watched: fc.subarray(WATCHED),
  domains: fc.subarray(DOMAINS),
  secret,
  enabled: fc.boolean(),
});

const desiredArb: fc.Arbitrary<Config> = fc.record({
  hooks: fc.dictionary(fc.constantFrom(...HOOK_NAMES), specFields, { maxKeys: 4 }),
  apps: fc.subarray(APPS),
  robots: fc.uniqueArray(fc.record({
    name: fc.constantFrom(...ROBOTS), pick: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), active: fc.nat(5),
    // The robot itself (issue 31): which physical robot, its daemon release, its name.
    hardwareId: fc.constantFrom(undefined, 'hw-1', null), daemonVersion: fc.constantFrom(undefined, '1.9.0', '1.10.0', 'latest'), robotName: fc.constantFrom(undefined, 'desk', 'reachy_mini'),
  }), { selector: (r) => r.name, maxLength: 3 }),
}).map(({ hooks, apps, robots }) => {
  const webhooks: WebhookSpec[] = Object.entries(hooks).map(([name, f]) => ({ name, ...f.target, watched: f.watched, domains: f.domains, secret: f.secret, enabled: f.enabled }));
  const c = config({ webhooks, apps });
  for (const r of robots) {
    const mine = apps.filter((_, i) => r.pick[i]).map((a) => a.name);
    c.robots[r.name] = {
      name: r.name, url: 'http://127.0.0.1:1', apps: mine, active: mine[r.active] ?? null,
      ...(r.daemonVersion === undefined ? {} : { daemonVersion: r.daemonVersion }),
      ...(r.hardwareId === undefined ? {} : { hardwareId: r.hardwareId }), ...(r.robotName === undefined ? {} : { robotName: r.robotName }),
    };
  }
  return c;
});

const hookArb = (id: string): fc.Arbitrary<HubWebhook> => fc.record({
  f: specFields, echo: fc.boolean(), watchedOrder: fc.boolean(),
}).map(({ f, echo, watchedOrder }) => ({
  id, url: f.target.url, job: f.target.jobId ? {} : null,
  ...(echo ? { jobSourceId: f.target.jobId } : {}),
  watched: watchedOrder ? [...f.watched].reverse() : f.watched, domains: f.domains, secret: f.secret, disabled: !f.enabled,
}));

const appInfoArb = (spec: AppSpec): fc.Arbitrary<AppInfo> => fc.record({
  src: fc.constantFrom('same', 'other', 'unknown'), sha: fc.constantFrom(undefined, 'x', 'y'),
}).map(({ src, sha }) => {
  const extra: Record<string, unknown> = sha ? { sha } : {};
  if (src === 'unknown') return { name: spec.name, source_kind: 'installed', description: '', url: null, extra };
  if (spec.path !== null) return { name: spec.name, source_kind: 'local', description: '', url: null, extra: { ...extra, path: src === 'same' ? spec.path : '/old' } };
  return { name: spec.name, source_kind: 'hf_space', description: '', url: src === 'same' ? spec.source : 'https://huggingface.co/spaces/z/z', extra };
});

const STATES: AppState[] = ['starting', 'running', 'done', 'stopping', 'error'];
const robotArb: fc.Arbitrary<RobotObservation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ reachable: false as const, error: 'timeout' }) },
  { weight: 5, arbitrary: fc.record({
    installed: fc.tuple(...[...APPS, app('toy')].map((a) => fc.option(appInfoArb(a), { nil: undefined }))),
    current: fc.option(fc.record({ which: fc.nat(4), state: fc.constantFrom(...STATES) }), { nil: null }),
    version: fc.constantFrom('1.9.0', '1.10.0.dev0', '1.11.0rc1', null), name: fc.constantFrom('reachy_mini', 'desk'),
    hardwareId: fc.constantFrom('hw-1', 'hw-2', null), latest: fc.constantFrom(undefined, '1.10.0', null),
  }).map(({ installed, current, version, name, hardwareId, latest }) => {
    const list = installed.filter((x): x is AppInfo => x !== undefined);
    const info = current ? list[current.which] ?? { name: 'toy', source_kind: 'installed' as const, description: '', url: null, extra: {} } : null;
    return {
      reachable: true as const, daemon: { robot_name: name, state: 'running' as const, version, hardware_id: hardwareId, robotctl_simulator: true },
      installed: list, current: info && current ? { info, state: current.state, error: null } : null, ...(latest === undefined ? {} : { latestDaemon: latest }),
    };
  }) },
);

const worldArb = fc.record({
  ids: fc.subarray(IDS),
  robots: fc.tuple(...ROBOTS.map(() => robotArb)),
  shas: fc.tuple(...APPS.map(() => fc.constantFrom(null, 'x', 'y'))),
}).chain(({ ids, robots, shas }) => fc.tuple(...ids.map(hookArb)).map((hooks): Observation => ({
  hub: { ok: true, webhooks: hooks },
  spaces: Object.fromEntries(APPS.filter((a) => a.spaceId).map((a, i) => [a.spaceId as string, { sha: shas[i] ?? null }])),
  robots: Object.fromEntries(ROBOTS.map((r, i) => [r, robots[i] as RobotObservation])),
})));

const stateArb: fc.Arbitrary<StateFile> = fc.record({
  hooks: fc.dictionary(fc.constantFrom(...HOOK_NAMES), fc.record({ id: fc.constantFrom(...IDS, 'gone'), f: specFields })),
  apps: fc.tuple(...ROBOTS.map(() => fc.subarray(APPS).chain((owned) => fc.tuple(...owned.map((a) => fc.record({ a: fc.constant(a), sha: fc.constantFrom(null, 'x', 'y') })))))),
}).map(({ hooks, apps }) => ({
  version: 1, lineage: 'prop', serial: 3,
  webhooks: Object.fromEntries(Object.entries(hooks).map(([name, { id, f }]) => [name, {
    id, specHash: webhookSpecHash({ ...f.target, watched: f.watched, domains: f.domains, secret: f.secret, enabled: f.enabled }),
  }])),
  robots: Object.fromEntries(ROBOTS.map((r, i) => [r, { apps: Object.fromEntries((apps[i] ?? []).map(({ a, sha }) => [a.name, { source: a.source, path: a.path, sha }])) }])),
}));

t.test('plan, apply, plan again: nothing left to do', (t) => {
  fc.assert(fc.property(desiredArb, worldArb, stateArb, (desired, observed, st) => {
    const first = plan(desired, observed, st, { allowEmpty: true });
    const after = simulateApply(observed, first, desired, st);
    const second = plan(desired, after.observation, after.state, { allowEmpty: true });
    if (second.actions.length > 0) {
      throw new Error(`not converged: ${second.actions.map((a) => `${a.type} ${a.address} (${a.reason})`).join('; ')}`);
    }
  }), { numRuns: 600, seed: 42 });
  t.pass('converges');
  t.end();
});

t.test('planning is deterministic and never leaks a secret', (t) => {
  fc.assert(fc.property(desiredArb, worldArb, stateArb, (desired, observed, st) => {
    const a = JSON.stringify(plan(desired, observed, st, { allowEmpty: true }));
    const b = JSON.stringify(plan(desired, observed, st, { allowEmpty: true }));
    return a === b && !/"s1"|"s2"/.test(a);
  }), { numRuns: 200, seed: 7 });
  t.pass('deterministic');
  t.end();
});

t.test('applyPlanToObservation matches simulateApply', (t) => {
  fc.assert(fc.property(desiredArb, worldArb, stateArb, (desired, observed, st) => {
    const p = plan(desired, observed, st, { allowEmpty: true });
    return JSON.stringify(applyPlanToObservation(observed, p, desired)) === JSON.stringify(simulateApply(observed, p, desired, st).observation);
  }), { numRuns: 100, seed: 3 });
  t.pass('same model');
  t.end();
});

// The diff view prints a webhook's actions on one line by reading runs of
// them (cli/views/diff-view.ts): it relies on this order.
t.test('the hub webhooks\' actions come first, and each name\'s are side by side', (t) => {
  fc.assert(fc.property(desiredArb, worldArb, stateArb, (desired, observed, st) => {
    const { actions } = plan(desired, observed, st, { allowEmpty: true });
    const firstRobot = actions.findIndex((a) => !isWebhookAction(a));
    if (firstRobot >= 0 && actions.slice(firstRobot).some(isWebhookAction)) return false;
    const names = actions.filter(isWebhookAction).map((a) => a.name);
    const runs = names.filter((n, i) => i === 0 || names[i - 1] !== n);
    return new Set(runs).size === runs.length;
  }), { numRuns: 600, seed: 11 });
  t.pass('ordered');
  t.end();
});
