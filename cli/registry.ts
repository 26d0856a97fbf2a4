import type { Io } from '../lib/io.js';

// Every command is imported lazily so `robotctl --help` loads nothing heavy.
export interface CommandModule {
  run(args: string[], io: Io): Promise<number>;
}

export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<CommandModule>;
}

export const commands: CommandEntry[] = [
  { name: 'up', summary: 'Run the whole loop on this machine: embedded hub, simulated robots, agent', load: () => import('./commands/up.js') },
  { name: 'plan', summary: 'Show what apply would change (exit 0 nothing, 2 changes)', load: () => import('./commands/plan.js') },
  { name: 'apply', summary: 'Bring the hub and every robot to what robot.yaml declares', load: () => import('./commands/apply.js') },
  { name: 'diff', summary: 'Detect drift for CI (exit 0 none, 2 drift, 1 error)', load: () => import('./commands/diff.js') },
  { name: 'status', summary: 'Table of webhooks, robots, installed and running apps', load: () => import('./commands/status.js') },
  { name: 'agent', summary: 'Watch robot.yaml, heal drift, and redeploy apps on hub deliveries', load: () => import('./commands/agent.js') },
  { name: 'rollout', summary: 'Rollouts: history (time, trigger, revisions, waves, outcome), retry [APP] of a held-back revision', load: () => import('./commands/rollout.js') },
  { name: 'state', summary: 'Inspect the state file or break a stale lock (state show|unlock --force)', load: () => import('./commands/state.js') },
  { name: 'import', summary: 'Adopt an existing hub webhook: import webhooks.NAME ID', load: () => import('./commands/import.js') },
  { name: 'validate', summary: 'Check a robot.yaml and print its errors (or --print its resolved form)', load: () => import('./commands/validate.js') },
  { name: 'schema', summary: 'Print the JSON Schema of robot.yaml', load: () => import('./commands/schema.js') },
  { name: 'webhooks', summary: 'Manage webhooks on the Hub: ls|info|create|update|enable|disable|delete', load: () => import('./commands/webhooks.js') },
  { name: 'auth', summary: 'Log in to the Hub: login|whoami|logout', load: () => import('./commands/auth.js') },
  { name: 'app', summary: 'App authoring: create|check|publish', load: () => import('./commands/app.js') },
  { name: 'robots', summary: 'Find the robots on the LAN over mDNS: robots discover [--yaml]', load: () => import('./commands/robots.js') },
  { name: 'daemon', summary: 'Run a robot daemon (--sim: with a simulated robot)', load: () => import('./commands/daemon.js') },
  { name: 'hub', summary: 'Run the embedded hub (webhook API, repos, real deliveries)', load: () => import('./commands/hub.js') },
  { name: 'receiver', summary: 'Serve the webhook receiver endpoints of robot.yaml', load: () => import('./commands/receiver.js') },
];
