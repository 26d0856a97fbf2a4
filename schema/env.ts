import { parseDocument, type Document, type Scalar } from 'yaml';
import { eachValueScalar, type Finding, type Segment } from './yaml-doc.js';
import { BAIL, resolvePlain, type Bail } from './fast-yaml-scalar.js';
import type { Dollar } from './fast-yaml-flow.js';

// ${VAR} substitution in scalar values (never in keys), done on the parsed
// document before validation so the schema checks the substituted result.

const REFERENCE = /\$(\$?)\{([^}]*)\}/g;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface Substitution {
  value: string;
  /** Variables referenced but not set, in order of appearance. */
  missing: string[];
  /** `${…}` contents that are not a variable name (e.g. `${A:-b}`). */
  invalid: string[];
  /** A `${` with no closing `}`. */
  unterminated: boolean;
  /** At least one variable was replaced (escapes alone do not count). */
  replaced: boolean;
}

/** The text refers to at least one variable (`$${…}` is a literal, not a reference). */
export function hasReference(text: string): boolean {
  for (const m of text.matchAll(REFERENCE)) if (!m[1]) return true;
  return false;
}

/** Replace `${VAR}` from env; `$${VAR}` is a literal `${VAR}`. Pure. */
export function substitute(text: string, env: NodeJS.ProcessEnv): Substitution {
  const missing: string[] = [];
  const invalid: string[] = [];
  let replaced = false;
  const value = text.replace(REFERENCE, (_m, escape: string, name: string) => {
    if (escape) return `\${${name}}`;
    if (!VAR_NAME.test(name)) {
      invalid.push(name);
      return '';
    }
    const v = env[name];
    if (v === undefined) {
      missing.push(name);
      return '';
    }
    replaced = true;
    return v;
  });
  const unterminated = text.replace(REFERENCE, '').includes('${');
  return { value, missing, invalid, unterminated, replaced };
}

function problems(s: Substitution, path: Segment[]): Finding[] {
  const found: Finding[] = s.missing.map((name) => ({ path, message: `environment variable ${name} is not set` }));
  for (const name of s.invalid) {
    found.push({ path, message: `'\${${name}}' is not a variable reference: write \${NAME} (letters, digits, _), or $\${…} for a literal` });
  }
  if (s.unterminated) found.push({ path, message: "'${' has no closing '}': write $${ for a literal ${" });
  return found;
}

/** Substitute in place in every value scalar; returns the problems found. */
export function substituteDocument(doc: Document, env: NodeJS.ProcessEnv): Finding[] {
  const findings: Finding[] = [];
  eachValueScalar(doc.contents, [], (scalar, path) => {
    if (typeof scalar.value !== 'string' || !scalar.value.includes('$')) return;
    const s = substitute(scalar.value, env);
    const found = problems(s, path);
    findings.push(...found);
    if (found.length === 0) scalar.value = s.replaced && scalar.type === 'PLAIN' ? retype(s.value) : s.value;
  });
  return findings;
}

/** The same on the fast reader's data; BAIL when a value's new type is not certain without YAML. */
export function substituteData(dollars: Dollar[], env: NodeJS.ProcessEnv): Finding[] | Bail {
  const findings: Finding[] = [];
  // Thousands of webhooks usually share a few texts (`${WEBHOOK_SECRET}`):
  // each text is substituted, checked and retyped once.
  const seen = new Map<string, Seen>();
  for (const d of dollars) {
    const text = String((d.parent as Record<string | number, unknown>)[d.key]);
    let e = seen.get(text);
    if (!e) seen.set(text, (e = seenOf(substitute(text, env))));
    if (!e.clean) {
      findings.push(...problems(e.s, [...d.parentPath, d.key]));
      continue;
    }
    const value = d.plain ? e.plainValue : e.s.value;
    if (value === BAIL) return BAIL;
    (d.parent as Record<string | number, unknown>)[d.key] = value;
  }
  return findings;
}

interface Seen {
  s: Substitution;
  /** No problem to report, whatever the path. */
  clean: boolean;
  /** The value where the text was unquoted. */
  plainValue: Scalar['value'] | Bail;
}

function seenOf(s: Substitution): Seen {
  const clean = s.missing.length === 0 && s.invalid.length === 0 && !s.unterminated;
  return { s, clean, plainValue: clean && s.replaced ? plainRetype(s.value) : s.value };
}

// retype() below without YAML, for the texts whose reading is certain.
function plainRetype(text: string): Scalar['value'] | Bail {
  if (text.trim() === '') return text;
  if (text !== text.trim() || /[\n\t#]/.test(text)) return BAIL;
  const v = resolvePlain(text);
  return v === BAIL || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? v : BAIL;
}

// An unquoted `port: ${PORT}` means the number, as if the text had been
// substituted before parsing; quoted scalars stay strings.
function retype(text: string): Scalar['value'] {
  if (text.trim() === '') return text;
  const doc = parseDocument(text);
  if (doc.errors.length || doc.warnings.length) return text;
  const v: unknown = doc.toJS();
  return typeof v === 'number' || typeof v === 'boolean' || v === null ? v : text;
}
