// The world `robotctl plan` and `diff` are measured against: an embedded hub
// that is empty (every webhook to create) or already holds every webhook of
// robot.yaml (no state file: every one adopted), and optionally a simulated
// fleet whose robots have nothing installed (an install and a start each).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { quietApp } from './quiet-app.mjs';
import { startSimFleet } from './sim-fleet.mjs';
import { SECRET_ENV, webhooksYaml } from './robot-yaml.mjs';

export const HUB_USER = { name: 'bench', token: 'hf_bench_token' };

// The hub's data file holding the same webhooks robot.yaml declares.
function hubData(n) {
  const now = new Date(0).toISOString();
  const webhooks = Array.from({ length: n }, (_, i) => ({
    id: `bench${String(i).padStart(20, '0')}`, owner: HUB_USER.name, url: `https://example.org/hooks/${i}`, jobSourceId: null,
    watched: [{ type: 'space', name: `demo/app_${i % 50}` }, { type: 'user', name: 'demo' }], domains: ['repo'],
    secret: SECRET_ENV.WEBHOOK_SECRET, disabled: false, createdAt: now, updatedAt: now,
  }));
  return JSON.stringify({ format_version: 2, webhooks, repos: [], activity: {}, triggers: {}, jobRuns: [] });
}

/** A started embedded hub for `n` webhooks (`populated`: it holds them). */
export async function startWorldHub(startHub, dir, n, populated) {
  const data = join(dir, `hub-${n}-${populated}`);
  mkdirSync(data, { recursive: true });
  if (populated) writeFileSync(join(data, 'hub.json'), hubData(n));
  return startHub({ users: [HUB_USER], dataDir: data, log: () => {} });
}

/** `robots` simulated robots and the app folder robot.yaml gives them: { urls, appPath, stop() }. */
export async function startWorldFleet(dir, robots) {
  const appPath = quietApp(dir, 'dev_app');
  const fleet = await startSimFleet(robots, join(dir, 'fleet'));
  return { ...fleet, appPath };
}

/** Writes robot.yaml for `n` webhooks (and the fleet's robots) into its own folder; returns its path. */
export function writeWorldYaml(dir, label, n, fleet = null) {
  const folder = join(dir, label);
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'robot.yaml');
  writeFileSync(file, webhooksYaml(n, fleet ? { robots: fleet.urls, appPath: fleet.appPath } : {}));
  return file;
}

/** The command's environment: the secret, the hub and its token. */
export function worldEnv(hub) {
  return { ...SECRET_ENV, HF_ENDPOINT: hub.url, HF_TOKEN: HUB_USER.token };
}
