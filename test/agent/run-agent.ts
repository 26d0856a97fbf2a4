import { loadConfig } from '../../schema/load.js';
import { startAgent, type Agent } from '../../reconciler/agent/agent.js';
import { driverPool } from '../../cli/session/drivers.js';
import { mountFleetPage } from '../../runtime/fleet-page/routes.js';
import type { Loop } from './fixture.js';

// An agent on a Loop's robot.yaml with the real drivers, tuned for tests
// (short settle, short debounce); its log lines are kept.

export interface TestAgent {
  agent: Agent;
  lines: string[];
  stop(): Promise<void>;
}

/** `healthyForMs`: the health gate's window (default a short 300 ms); null: the file's rollout.healthy_for. */
export async function runAgent(loop: Loop, opts: { mode?: 'heal' | 'warn'; intervalMs?: number; healthyForMs?: number | null } = {}): Promise<TestAgent> {
  const loaded = loadConfig(loop.file, loop.env);
  if (!loaded.ok) throw new Error(`bad test config: ${JSON.stringify(loaded.diagnostics)}`);
  const pool = driverPool(loop.env, loop.env.HF_TOKEN ?? null, () => true);
  const lines: string[] = [];
  const agent = await startAgent(loaded.config, {
    file: loop.file, cwd: loop.dir, env: loop.env, mode: opts.mode ?? 'heal', intervalMs: opts.intervalMs ?? 60_000,
    statePath: loop.statePath, drivers: pool.forConfig, log: (l) => { lines.push(l); if (process.env.AGENT_TEST_LOG) console.error(l); },
    debounceMs: 100, lockTimeoutMs: 5000, pages: mountFleetPage,
    ...(opts.healthyForMs === null ? {} : { tuning: { healthyForMs: opts.healthyForMs ?? 300 } }),
  });
  return { agent, lines, stop: async () => { await agent.stop(); await pool.close(); } };
}
