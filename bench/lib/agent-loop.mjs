// What the agent's end-to-end benchmarks share (agent-reaction, rollout-gate):
// an app whose every version is new content, simulated robots installing
// from the hub, a median, and a wait.

/**
 * The files of app `name` at `version` for a Space commit. `run` goes into
 * every version: each benchmark run commits content never built on this
 * machine (the installed-files cache would otherwise make a rerun measure a
 * warm cache).
 */
export function spaceApp(name, version, run) {
  return {
    'pyproject.toml': `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "${name}"\nversion = "0.1.0"\n\n[project.entry-points."reachy_mini_apps"]\n${name} = "${name}.main:App"\n\n[tool.setuptools]\npackages = ["${name}"]\n`,
    [`${name}/__init__.py`]: `VERSION = ${JSON.stringify(`${version} ${run}`)}\n`,
    [`${name}/main.py`]: 'import time\nclass App:\n    pass\ndef main():\n    try:\n        while True:\n            time.sleep(0.05)\n    except KeyboardInterrupt:\n        pass\nif __name__ == "__main__":\n    main()\n',
  };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polled every 25 ms (the figures' resolution): polling the daemons every
// 10 ms cost the machine about 300 status requests a second, CPU the
// redeploy being measured competes for on 2 cores.
export async function until(fn, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * Simulated robots installing from `hub` as `user`, each with its client;
 * `pollen` names those that answer exactly as Pollen's daemon does (no
 * robotctl extensions: the app state is polled, not pushed). Each robot's
 * close is pushed onto `closers`.
 */
export async function startBenchRobots({ hub, user, dir, names, pollen = [], closers }) {
  const { startDaemon } = await import('../../dist/runtime/daemon/server.js');
  const { createDaemonClient } = await import('../../dist/drivers/daemon/client.js');
  const { join } = await import('node:path');
  const robots = [];
  for (const name of names) {
    const daemon = await startDaemon({
      appsDir: join(dir, name), sim: true, port: 0, robotName: name, hubEndpoint: hub.url, hubToken: user.token, startupApp: null,
      robotctlExtensions: !pollen.includes(name),
    });
    const client = createDaemonClient({ baseUrl: daemon.url });
    closers.push(async () => { await client.close(); await daemon.close(); });
    robots.push({ name, url: daemon.url, client });
  }
  return robots;
}

/**
 * The agent on `file` (heal mode, the drift check 10 min away, a free port),
 * with a hub webhook that sends `space`'s pushes to its receiver's
 * `/webhooks/redeploy`; resolves once its first run converged. `close` in
 * the caller's clean-up stops it and its drivers.
 */
export async function startBenchAgent({ hub, user, file, dir, space, extra = {} }) {
  const { loadConfig } = await import('../../dist/schema/load.js');
  const { startAgent } = await import('../../dist/reconciler/agent/agent.js');
  const { driverPool } = await import('../../dist/cli/session/drivers.js');
  const { join } = await import('node:path');
  const env = { HF_ENDPOINT: hub.url, HF_TOKEN: user.token, PATH: process.env.PATH ?? '' };
  const loaded = loadConfig(file, env);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  const pool = driverPool(env, user.token, () => false);
  const agent = await startAgent(loaded.config, {
    file, cwd: dir, env, mode: 'heal', intervalMs: 600_000, statePath: join(dir, 'state.json'),
    drivers: pool.forConfig, log: () => {}, receiverPort: 0, ...extra,
  });
  const close = async () => { await agent.stop(); await pool.close(); };
  try {
    // The hub delivers to a webhook pointing at the agent's receiver (port known only now).
    await fetch(`${hub.url}/api/settings/webhooks`, {
      method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${agent.url}/webhooks/redeploy`, watched: [{ type: 'space', name: space }], domains: ['repo'] }),
    });
    const first = await agent.firstRun;
    if (first.result !== 'converged') throw new Error(`setup did not converge: ${first.result}`);
  } catch (err) {
    await close();
    throw err;
  }
  return { agent, close };
}
