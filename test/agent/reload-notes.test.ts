import t from 'tap';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../schema/load.js';
import { startAgent } from '../../reconciler/agent/agent.js';
import { driverPool } from '../../cli/session/drivers.js';
import { until } from '../helpers/wait.js';

// A save of robot.yaml is applied at once, except what the agent opened at
// its start: the state. Adding or changing a `state:` block says that a state
// change needs a restart, and the agent explicitly keeps the state it has.

t.test('a state: block added while the agent runs: the note says a restart is needed, the old state stays in use', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\n' });
  const file = join(dir, 'robot.yaml');
  const statePath = join(dir, '.robotctl', 'state.json');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HF_ENDPOINT: 'http://127.0.0.1:9' };
  const loaded = loadConfig(file, env);
  if (!loaded.ok) throw new Error('bad test config');
  const pool = driverPool(env, null, () => true);
  const lines: string[] = [];
  const agent = await startAgent(loaded.config, {
    file, cwd: dir, env, mode: 'heal', intervalMs: 60_000, statePath, drivers: pool.forConfig,
    receiverPort: 0, log: (l) => lines.push(l), debounceMs: 50, lockTimeoutMs: 5000,
  });
  t.teardown(async () => { await agent.stop(); await pool.close(); });
  await agent.firstRun;
  const where = agent.status().leadership?.state ?? '';
  t.match(where, /state\.json/);

  writeFileSync(file, 'version: 1\nstate: { backend: local, path: other-state.json }\n');
  const note = await until(() => lines.find((l) => l.startsWith('the state: block changed')), 20_000, () => `the note, in:\n${lines.join('\n')}`);
  t.equal(note, `the state: block changed: a state change needs a restart of the agent; until then it keeps the state it started with (${where})`);
  await agent.idle();
  t.equal(agent.status().leadership?.state, where, 'the agent keeps its state');
  t.notOk(existsSync(join(dir, 'other-state.json')), 'the new state file is not used before a restart');

  // Another save that keeps the new block says it again: the agent still runs on the old state.
  const count = lines.filter((l) => l.startsWith('the state: block changed')).length;
  writeFileSync(file, 'version: 1\n# a comment\nstate: { backend: local, path: other-state.json }\n');
  await until(() => lines.filter((l) => l.startsWith('the state: block changed')).length > count, 20_000, 'the note again');
  // Back to the state it started with: no note.
  const before = lines.length;
  writeFileSync(file, 'version: 1\n');
  await until(() => lines.slice(before).some((l) => l.startsWith('reloaded ')), 20_000, 'the reload');
  await agent.idle();
  t.notOk(lines.slice(before).some((l) => l.startsWith('the state: block changed')), 'no note once the file names the state in use again');
});
