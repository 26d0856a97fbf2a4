import { loadConfig } from '../../schema/load.js';
import { formatDiagnostic, type Config } from '../../schema/types.js';

// Re-reading robot.yaml after a save. An invalid file is reported with its
// diagnostics and the last good config stays in force: never half-applied.

export type Reloaded =
  | { ok: true; config: Config; notes: string[] }
  | { ok: false; error: string; lines: string[] };

export function reloadConfig(file: string, env: NodeJS.ProcessEnv, cwd: string, previous: Config): Reloaded {
  const result = loadConfig(file, env, { cwd });
  if (!result.ok) {
    const lines = result.diagnostics.map(formatDiagnostic);
    return { ok: false, error: `${result.diagnostics.length} problem(s): ${lines.join('; ')}`, lines };
  }
  const notes = [`reloaded ${file}`];
  if (JSON.stringify(result.config.receiver) !== JSON.stringify(previous.receiver)) {
    notes.push('the receiver section changed: restart the agent for it to take effect');
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
