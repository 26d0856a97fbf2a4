import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';
import { atomicWrite } from '../../lib/atomic-write.js';
import type { Io } from '../../lib/io.js';

// `.robotctl/env` beside a robot.yaml: the variables one configuration's
// session needs and the user did not export. `robotctl up` keeps there the
// WEBHOOK_SECRET it generated (so every later up, plan and apply of the same
// file sign with the same secret, and the agent never "fixes" it back) and,
// while it runs, HF_ENDPOINT and HF_TOKEN of its embedded hub, so that
// `robotctl plan -f examples/fleet.yaml` in another terminal reads the same
// hub and the same state. The process environment always wins (dotenv's
// rule): an exported HF_TOKEN is never replaced by the file's.

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function configEnvPath(configFile: string): string {
  return join(dirname(resolve(configFile)), '.robotctl', 'env');
}

/** The file's variables (dotenv syntax, read by Node's util.parseEnv); a missing file is empty. */
export function readConfigEnv(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseEnv(text))) if (NAME.test(name) && value !== undefined) vars[name] = value;
  return vars;
}

/** Rewritten whole (0600, atomically); a value of null removes the variable. */
export async function updateConfigEnv(path: string, changes: Record<string, string | null>): Promise<void> {
  const vars = readConfigEnv(path);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete vars[name];
    else vars[name] = value;
  }
  const body = Object.entries(vars).map(([k, v]) => `${k}=${v}\n`).join('');
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await atomicWrite(path, `# written by robotctl up; read by robotctl for ${dirname(dirname(path))} (exported variables win)\n${body}`, 0o600);
}

/**
 * `io` with the configuration's env file merged under the process
 * environment. Says on stderr which names came from the file (never values).
 */
export function withConfigEnv(io: Io, configFile: string): Io {
  const path = configEnvPath(resolve(io.cwd, configFile));
  const vars = readConfigEnv(path);
  // Named in a fixed order (sorted), whatever order the file was written in.
  const used = Object.keys(vars).filter((k) => io.env[k] === undefined || io.env[k] === '').sort();
  if (used.length === 0) return io;
  io.err(`using ${used.join(', ')} from ${path}\n`);
  const env: NodeJS.ProcessEnv = { ...io.env };
  for (const k of used) env[k] = vars[k];
  return { ...io, env };
}
