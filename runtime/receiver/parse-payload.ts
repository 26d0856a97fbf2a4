import type { ErrorObject } from 'ajv';
import { validator } from '../../lib/validators.js';
import type { WebhookPayload } from './payload.js';
import { PAYLOAD_SCHEMA_ID, payloadSchema } from './payload-schema.js';

export type ParseResult = { ok: true; payload: WebhookPayload } | { ok: false; error: string };

/** Validate a parsed JSON body into a WebhookPayload; the error names the field. */
export function parsePayload(body: unknown): ParseResult {
  // Compiled on the first delivery (lib/validators.ts), so importing the library stays cheap.
  const check = validator<WebhookPayload>(PAYLOAD_SCHEMA_ID, () => payloadSchema);
  if (check(body)) return { ok: true, payload: body };
  return { ok: false, error: describe(check.errors?.[0]) };
}

function fieldName(instancePath: string): string {
  return instancePath.slice(1).replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~');
}

function describe(err: ErrorObject | undefined): string {
  if (!err) return 'Invalid payload.';
  const field = fieldName(err.instancePath);
  const params = err.params as Record<string, unknown>;
  if (err.keyword === 'required') {
    const missing = String(params.missingProperty);
    return `Invalid payload: ${field ? `${field}.` : ''}${missing} is required.`;
  }
  const where = field || 'body';
  if (err.keyword === 'enum') {
    const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
    return `Invalid payload: ${where} must be one of ${allowed}.`;
  }
  if (err.keyword === 'const') return `Invalid payload: ${where} must be ${JSON.stringify(params.allowedValue)}.`;
  if (err.keyword === 'type') return `Invalid payload: ${where} must be ${formatType(params.type)}.`;
  return `Invalid payload: ${where} ${err.message ?? 'is invalid'}.`;
}

function formatType(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : [String(type)];
  const named = types.map((t) => (t === 'object' ? 'an object' : t === 'array' ? 'an array' : t === 'integer' ? 'an integer' : `a ${t}`));
  return named.join(' or ');
}
