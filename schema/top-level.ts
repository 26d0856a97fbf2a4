import { readFileSync } from 'node:fs';
import { UserError } from '../lib/errors.js';
import { fastParse } from './fast-yaml.js';
import { substitute } from './env.js';
import { parseYaml } from './yaml-doc.js';

// One top-level block of robot.yaml (`state:`, `hub:`) read apart from the
// whole file, for the commands that need only that block: `state show`,
// `state unlock` and `state migrate` work while the rest of the file is
// broken. In a plain block-style file every line at column 0 is a key or a
// comment, so the block is the lines from its key to the next key, and only
// they are parsed (by the fast reader, fast-yaml.ts). Anything else (flow
// style at the top, documents, anchors, a key written twice…) is read whole
// by the loader's parser (yaml-doc.ts).

const KEY_LINE = /^[A-Za-z_][A-Za-z0-9_-]*:(?=\s|$)/;

/** The value of top-level `key` (undefined: absent), or null when the file is missing or not YAML. */
export function readTopLevel(configFile: string, key: string): unknown {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch {
    return null; // missing: the loader reports it where it matters
  }
  const block = blockOf(text, key);
  if (block === null) return undefined;
  const fast = block === undefined ? undefined : fastParse(block);
  if (fast) return fast.data[key];
  try {
    // The loader's own parse: its limits (aliases, depth, complex keys) hold here too.
    const parsed = parseYaml(text);
    if (parsed.problems.length > 0) return null;
    const doc = parsed.doc.toJS({ maxAliasCount: 100 }) as unknown;
    return typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>)[key] : undefined;
  } catch {
    return null; // broken: the loader reports it where it matters
  }
}

/** robot.yaml's hub.endpoint as written (no ${VAR} substituted), or null. */
export function readHubEndpoint(configFile: string): string | null {
  const endpoint = (readTopLevel(configFile, 'hub') as { endpoint?: unknown } | null | undefined)?.endpoint;
  return typeof endpoint === 'string' ? endpoint : null;
}

/** The `state:` mapping of robot.yaml with ${VAR} substituted in its values, or null when there is none. */
export function readStateBlock(configFile: string, env: NodeJS.ProcessEnv): Record<string, unknown> | null {
  const block = readTopLevel(configFile, 'state');
  if (block === undefined || block === null) return null;
  if (typeof block !== 'object' || Array.isArray(block)) throw new UserError(`${configFile}: state must be a mapping (state: { backend: local | hub | postgres, … })`);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(block as Record<string, unknown>)) {
    if (typeof v !== 'string') { out[k] = v; continue; }
    const s = substitute(v, env);
    if (s.missing.length > 0) throw new UserError(`${configFile}: state.${k}: environment variable ${s.missing[0]} is not set`);
    out[k] = s.value;
  }
  return out;
}

/** The lines of `key:` at the top level; null when there is no such key; undefined when the file is not that plain. */
function blockOf(text: string, key: string): string | null | undefined {
  const top = /^[^ \n].*$/gm;
  let start = -1;
  let end = text.length;
  for (let m = top.exec(text); m !== null; m = top.exec(text)) {
    const line = m[0];
    if (line.startsWith('#')) continue;
    const k = KEY_LINE.exec(line);
    if (!k) return undefined;
    if (start >= 0 && end === text.length) end = m.index;
    if (k[0] === `${key}:`) {
      if (start >= 0) return undefined; // written twice: the full parser says what it makes of it
      start = m.index;
    }
  }
  return start < 0 ? null : text.slice(start, end);
}
