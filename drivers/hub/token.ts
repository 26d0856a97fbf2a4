import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Token lookup in huggingface_hub's order, so an existing `hf auth login` works.

export interface ResolvedToken {
  token: string;
  /** Where it came from, for messages (never the token itself). */
  source: string;
}

/** Where `robotctl auth login` writes and huggingface_hub reads the token. */
export function tokenFilePath(env: NodeJS.ProcessEnv): string {
  if (env.HF_TOKEN_PATH) return env.HF_TOKEN_PATH;
  const hfHome = env.HF_HOME || join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'huggingface');
  return join(hfHome, 'token');
}

function readTokenFile(path: string): string | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text === '' ? null : text;
  } catch {
    return null;
  }
}

/** --token, then HF_TOKEN, then the token file (HF_TOKEN_PATH, $HF_HOME/token, ~/.cache/huggingface/token). */
export function resolveToken(opts: { flag?: string | null; env: NodeJS.ProcessEnv }): ResolvedToken | null {
  if (opts.flag) return { token: opts.flag, source: '--token' };
  const envToken = opts.env.HF_TOKEN?.trim();
  if (envToken) return { token: envToken, source: 'HF_TOKEN' };
  const path = tokenFilePath(opts.env);
  const fromFile = readTokenFile(path);
  return fromFile ? { token: fromFile, source: path } : null;
}
