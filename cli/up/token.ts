import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

/** The hub token `up` keeps in <data>/hub-token (0600): reused across sessions, made once. */
export function sessionToken(file: string): string {
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^hf_[0-9a-f]{40}$/.test(kept)) return kept;
  } catch {
    // first up on this folder
  }
  const token = `hf_${randomBytes(20).toString('hex')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
