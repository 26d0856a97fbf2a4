import { didYouMean } from './did-you-mean.js';
import type { Finding, Segment } from './yaml-doc.js';

// Small helpers shared by the semantic rules, which run on unchecked data:
// ajv reports wrong types, so the rules skip whatever is not the right shape.

export type Data = Record<string, unknown>;

export function record(v: unknown): Data | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : undefined;
}

/** The entries of `v` whose values are maps (a plain loop: it runs over every webhook several times). */
export function entries(v: unknown): [string, Data][] {
  const r = record(v);
  const out: [string, Data][] = [];
  if (!r) return out;
  for (const k of Object.keys(r)) {
    const d = record(r[k]);
    if (d) out.push([k, d]);
  }
  return out;
}

export function has(d: Data, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(d, key) && d[key] !== undefined;
}

/**
 * Exactly one of two keys of the mapping at `section.name`; points at
 * whichever of the two comes second in it. The path and the key list are
 * made only for a finding: this runs for every webhook.
 */
export function exactlyOne(d: Data, section: string, name: string, a: string, b: string): Finding | undefined {
  const hasA = has(d, a);
  const hasB = has(d, b);
  if (hasA !== hasB) return undefined;
  const path: Segment[] = [section, name];
  if (hasA) {
    const keyOrder = Object.keys(d);
    const second = keyOrder.indexOf(a) > keyOrder.indexOf(b) ? a : b;
    return { path, pointAt: [...path, second], at: 'key', message: `set ${a} or ${b}, not both` };
  }
  return { path, at: 'key', message: `set ${a} or ${b}` };
}

// An http(s) URL whose authority holds no `@` has no user name or password.
// With URL.canParse this settles the usual URL without building a URL object
// (a third of the cost, and it runs once per webhook); anything else takes
// the full check below, which words the problem.
const PLAIN_HTTP_URL = /^https?:\/\/[^@/?#\\]+(?:[/?#]|$)/i;

export function httpUrlProblem(v: string, example: string): string | undefined {
  if (PLAIN_HTTP_URL.test(v) && URL.canParse(v)) return undefined;
  let u: URL;
  try {
    // `desk.local:8000` parses as scheme `desk.local:`; without `://` it is not a URL a user meant.
    if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(v)) throw new Error('no scheme');
    u = new URL(v);
  } catch {
    return `must be an http(s) URL like ${example}`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `must be an http(s) URL like ${example}, not ${u.protocol}`;
  if (u.username || u.password) return 'must not contain a user name or password';
  return undefined;
}

export function undeclaredApp(name: string, apps: string[]): string {
  const hint = didYouMean(name, apps) || (apps.length ? `; declared apps: ${apps.join(', ')}` : '; no apps are declared');
  return `'${name}' is not a declared app${hint}`;
}
