// A Plan in memory uses the TypeScript names (camelCase); its JSON document
// uses snake_case, like the hub's and Terraform's JSON. The plan's camelCase
// names are listed here, so the mapping is exact both ways; the fields of a
// changed webhook (FieldChange.field, JSON-patch paths) follow them. Values
// below `extra` (an app's daemon metadata) are passed through untouched.

const CAMEL_TO_SNAKE: Record<string, string> = {
  hubError: 'hub_error',
  observedDigest: 'observed_digest',
  desiredDigest: 'desired_digest',
  specHash: 'spec_hash',
  secretSalt: 'secret_salt',
  secretChanged: 'secret_changed',
  jobId: 'job_id',
  hasSecret: 'has_secret',
  heldDeletes: 'held_deletes',
  heldBack: 'held_back',
};
const SNAKE_TO_CAMEL: Record<string, string> = Object.fromEntries(Object.entries(CAMEL_TO_SNAKE).map(([c, s]) => [s, c]));

type Names = Record<string, string>;

/** The plan as its JSON document (snake_case keys). */
export function toDocument(plan: object): unknown {
  return rename(plan, CAMEL_TO_SNAKE);
}

/** A validated JSON document back into the in-memory plan. */
export function fromDocument(doc: unknown): unknown {
  return rename(doc, SNAKE_TO_CAMEL);
}

function rename(value: unknown, names: Names): unknown {
  if (Array.isArray(value)) return value.map((v) => rename(v, names));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  // A JSON-patch operation ({op, path}) or a field change ({field, before, after}) names WebhookView fields in its values.
  const isPatch = typeof obj.op === 'string' && typeof obj.path === 'string';
  const isChange = typeof obj.field === 'string' && 'before' in obj && 'after' in obj;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(obj)) {
    let next: unknown;
    if (key === 'extra') next = v;
    else if (isPatch && (key === 'path' || key === 'from') && typeof v === 'string') next = v.split('/').map((part) => names[part] ?? part).join('/');
    else if (isChange && key === 'field' && typeof v === 'string') next = names[v] ?? v;
    else next = rename(v, names);
    out[names[key] ?? key] = next;
  }
  return out;
}
