// Planner cost at scale: 10,000 webhooks and 1,000 robots × 5 apps, for a
// converged world (the common `diff` case), a world with 10% drift, an
// empty world (first apply) and a lost state file (everything adopted). Pure computation: no files, no servers.
// Build first: it imports ../dist.
import { figure } from './lib/figures.mjs';

const { plan } = await import('../dist/reconciler/plan.js');
const { webhookSpecHash } = await import('../dist/reconciler/hash.js');
const { renderPlan } = await import('../dist/cli/views/plan-view.js');
const { planToJson } = await import('../dist/reconciler/plan-file.js');
const { sealPlan } = await import('../dist/reconciler/seal.js');

const WEBHOOKS = 10_000;
const ROBOTS = 1_000;
const APPS = 5;
const TARGET_MS = 1000;

function desired() {
  const webhooks = {};
  for (let i = 0; i < WEBHOOKS; i++) {
    const name = `hook-${i}`;
    webhooks[name] = {
      name, url: `https://example.org/hooks/${i}`, jobId: null,
      watched: [{ type: 'space', name: `demo/app_${i % 50}` }, { type: 'user', name: 'demo' }],
      domains: ['repo'], secret: `secret-${i % 7}`, enabled: true,
    };
  }
  const apps = {};
  for (let a = 0; a < APPS; a++) {
    apps[`app_${a}`] = { name: `app_${a}`, source: `https://huggingface.co/spaces/demo/app_${a}`, spaceId: `demo/app_${a}`, path: null };
  }
  const robots = {};
  for (let r = 0; r < ROBOTS; r++) {
    robots[`robot-${r}`] = { name: `robot-${r}`, url: `http://10.0.${r >> 8}.${r & 255}:8000`, apps: Object.keys(apps), active: r % 4 === 0 ? 'app_1' : 'app_0' };
  }
  return {
    version: 1, file: '/bench/robot.yaml', hub: { endpoint: 'https://huggingface.co' }, webhooks, apps, active: 'app_0', robots,
    rollout: { parallelism: 10, canary: 1, maxFailures: { kind: 'count', value: 0 } }, receiver: null,
  };
}

function world(config, drift) {
  const hooks = Object.values(config.webhooks).map((w, i) => ({
    id: `id-${i}`, url: drift && i % 10 === 0 ? 'https://drifted.example.org' : w.url, job: null, jobSourceId: null,
    watched: [...w.watched].reverse(), domains: w.domains, secret: w.secret, disabled: false,
  }));
  const spaces = {};
  for (const a of Object.values(config.apps)) spaces[a.spaceId] = { sha: 'abc123' };
  const robots = {};
  for (const r of Object.values(config.robots)) {
    const installed = r.apps.map((name) => ({ name, source_kind: 'hf_space', description: '', url: config.apps[name].source, extra: { sha: 'abc123' } }));
    const running = drift && Number(r.name.slice(6)) % 10 === 0 ? 'app_4' : r.active;
    robots[r.name] = { reachable: true, daemon: { robot_name: 'reachy_mini', state: 'running' }, installed, current: { info: installed.find((a) => a.name === running), state: 'running', error: null } };
  }
  return { hub: { ok: true, webhooks: hooks }, spaces, robots };
}

function ownedState(config) {
  const webhooks = {};
  Object.values(config.webhooks).forEach((w, i) => { webhooks[w.name] = { id: `id-${i}`, specHash: webhookSpecHash(w) }; });
  return { version: 1, lineage: 'bench', serial: 1, webhooks, robots: {} };
}

function measure(label, fn, runs = 5) {
  fn(); // warm-up
  const times = [];
  const cpus = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    result = fn();
    const c = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpus.push((c.user + c.system) / 1000);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // Wall time is what users wait; CPU time tells the cost on a busy machine.
  const wall = median(times);
  figure({ name: label, value: wall, unit: 'ms', target: `< ${TARGET_MS}`, ok: wall < TARGET_MS, note: `median of ${runs} after a warm-up, cpu ${median(cpus).toFixed(1)} ms` });
  return result;
}

const config = desired();
const state = ownedState(config);
const empty = { version: 1, lineage: 'bench', serial: 0, webhooks: {}, robots: {} };
const nothing = { hub: { ok: true, webhooks: [] }, spaces: {}, robots: Object.fromEntries(Object.keys(config.robots).map((r) => [r, { reachable: true, daemon: { robot_name: 'x', state: 'running' }, installed: [], current: null }])) };

const calm = world(config, false);
const drift = world(config, true);
const converged = measure('plan-scale converged (10000 webhooks, 1000 robots x 5 apps)', () => plan(config, calm, state));
const drifted = measure('plan-scale 10% drift', () => plan(config, drift, state));
const fresh = measure('plan-scale from nothing', () => plan(config, nothing, empty));
const lost = measure('plan-scale lost state (adopt all 10000)', () => plan(config, calm, empty));
console.log(`plan-scale actions: ${converged.actions.length} converged, ${drifted.actions.length} drift, ${fresh.actions.length} from nothing, ${lost.summary.adopt} adopted`);
if (converged.actions.length !== 0) throw new Error('a converged world must plan no action');
measure('plan-scale render human (from nothing)', () => renderPlan(fresh));
// As plan --json prints it: sealed (digests, spec hashes), then written out.
measure('plan-scale seal and render json (from nothing)', () => planToJson(sealPlan(fresh, config, nothing)));
