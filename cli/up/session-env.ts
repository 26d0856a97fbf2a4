import { randomBytes } from 'node:crypto';
import { configEnvPath, readConfigEnv, updateConfigEnv } from '../session/config-env.js';

// What `up` keeps in .robotctl/env beside the file: the WEBHOOK_SECRET it
// generated once (kept across sessions) and, while it runs, its hub's
// HF_ENDPOINT and HF_TOKEN. The secret is written only once `up` is sure to
// start (after its checks), and at the end it removes only the values it
// wrote itself: a refused or failed `up` leaves another session's file as it was.

export interface SessionSecret {
  secret: string;
  /** Where it came from: exported, kept in the env file, or new (written by `keep`). */
  from: 'exported' | 'kept' | 'new';
  path: string;
  /** Writes a new secret to the env file (0600); nothing for an exported or kept one. */
  keep(): Promise<void>;
}

export function sessionSecret(configFile: string, env: NodeJS.ProcessEnv): SessionSecret {
  const path = configEnvPath(configFile);
  if (env.WEBHOOK_SECRET) return { secret: env.WEBHOOK_SECRET, from: 'exported', path, keep: async () => {} };
  const kept = readConfigEnv(path).WEBHOOK_SECRET;
  if (kept) return { secret: kept, from: 'kept', path, keep: async () => {} };
  const secret = randomBytes(24).toString('hex');
  return { secret, from: 'new', path, keep: () => updateConfigEnv(path, { WEBHOOK_SECRET: secret }) };
}

/** Writes `vars` to the env file; returns the undo, which removes each one still holding the value written. */
export async function shareWhileRunning(configFile: string, vars: Record<string, string>): Promise<() => Promise<void>> {
  const path = configEnvPath(configFile);
  await updateConfigEnv(path, vars);
  return async () => {
    const now = readConfigEnv(path);
    const ours = Object.keys(vars).filter((k) => now[k] === vars[k]);
    if (ours.length > 0) await updateConfigEnv(path, Object.fromEntries(ours.map((k) => [k, null])));
  };
}
