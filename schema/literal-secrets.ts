import type { Finding, Segment } from './yaml-doc.js';
import { hasReference } from './env.js';

// A secret written in robot.yaml itself (`secret: hunter2`) is read by
// anyone who reads the file, its repository or its history. It stays valid
// (a warning, exit 0), but each one is named at its line with the way out:
// an environment variable and a `${VAR}` reference. Checked on the values as
// written, before ${VAR} substitution.

const MESSAGE = 'a secret written in the file, where anyone who reads it finds it: ' +
  'put it in an environment variable (or .robotctl/env beside the file) and write ${WEBHOOK_SECRET} here';

/** `webhooks.NAME.secret`, `receiver.secret` and each of its list items. */
export function isSecretPath(path: readonly Segment[]): boolean {
  if (path[0] === 'webhooks') return path.length === 3 && path[2] === 'secret';
  if (path[0] !== 'receiver' || path[1] !== 'secret') return false;
  return path.length === 2 || (path.length === 3 && typeof path[2] === 'number');
}

/** A non-empty text with no `${VAR}` in it. */
export function isLiteralSecret(value: unknown): boolean {
  return typeof value === 'string' && value !== '' && !hasReference(value);
}

export function literalSecretWarning(path: Segment[]): Finding {
  return { path, message: MESSAGE };
}

/** The warnings of plain data as read (before substitution): only the secret paths are looked at. */
export function literalSecretsInData(data: unknown): Finding[] {
  const found: Finding[] = [];
  const root = asRecord(data);
  const hooks = asRecord(root?.webhooks);
  for (const name of Object.keys(hooks ?? {})) {
    if (isLiteralSecret(asRecord(hooks?.[name])?.secret)) found.push(literalSecretWarning(['webhooks', name, 'secret']));
  }
  const secret = asRecord(root?.receiver)?.secret;
  if (isLiteralSecret(secret)) found.push(literalSecretWarning(['receiver', 'secret']));
  if (Array.isArray(secret)) secret.forEach((s, i) => { if (isLiteralSecret(s)) found.push(literalSecretWarning(['receiver', 'secret', i])); });
  return found;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
