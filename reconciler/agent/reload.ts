import { loadConfig } from '../../schema/load.js';
import { formatDiagnostic, type Config } from '../../schema/types.js';

// Re-reading robot.yaml after a save. An invalid file is reported with its
// diagnostics and the last good config stays in force: never half-applied.

export type Reloaded =
  | { ok: true; config: Config; notes: string[] }
  | { ok: false; error: string; lines: string[] };

/**
 * `started`: the config the agent started with and where its state is. The
 * state store is opened once, at start: a changed `state:` block is said to
 * need a restart on every reload until the file matches the store again.
 */
export function reloadConfig(file: string, env: NodeJS.ProcessEnv, cwd: string, previous: Config, started?: { config: Config; stateWhere: string }): Reloaded {
  const result = loadConfig(file, env, { cwd });
  if (!result.ok) {
    const lines = result.diagnostics.map(formatDiagnostic);
    return { ok: false, error: `${result.diagnostics.length} problem(s): ${lines.join('; ')}`, lines };
  }
  const notes = [`reloaded ${file}`, ...result.warnings.map((w) => `warning: ${formatDiagnostic(w)}`)];
  if (JSON.stringify(result.config.receiver) !== JSON.stringify(previous.receiver)) {
    notes.push('the receiver section changed: restart the agent for it to take effect');
  }
  if (started && JSON.stringify(result.config.stateBlock ?? null) !== JSON.stringify(started.config.stateBlock ?? null)) {
    notes.push(`the state: block changed: a state change needs a restart of the agent; until then it keeps the state it started with (${started.stateWhere})`);
  }
  return { ok: true, config: result.config, notes };
}

/** Path apps that some robot installs: name → folder to watch. */
export function localApps(config: Config): Record<string, string> {
  const used = new Set(Object.values(config.robots).flatMap((r) => r.apps));
  const out: Record<string, string> = {};
  for (const app of Object.values(config.apps)) if (app.path !== null && used.has(app.name)) out[app.name] = app.path;
  return out;
}
