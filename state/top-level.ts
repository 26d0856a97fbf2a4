import { readFileSync } from 'node:fs';
import { fastParse } from '../schema/fast-yaml.js';
import { yamlLib } from '../schema/yaml-lib.js';

// One top-level block of robot.yaml (`state:`, `hub:`), read before and apart
// from the whole file (`state show` and `state unlock` work while the rest is
// broken). In a plain block-style file, every line at column 0 is a key or a
// comment, so the block is the lines from its key to the next key, and only
// they are parsed: a 50,000-webhook file is not parsed twice. Anything else
// (flow style at the top, documents, anchors, a key written twice…) is read
// by the full YAML parser, loaded only then.

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
    const doc = yamlLib().parse(text) as unknown;
    return typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>)[key] : undefined;
  } catch {
    return null; // broken: the loader reports it where it matters
  }
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
