import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export type ReadmeCheck = { ok: true } | { ok: false; message: string };

/** The YAML between the first `---` line and the next, as the real assistant reads it. */
function frontmatterText(text: string): string {
  const out: string[] = [];
  let inside = false;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '---') {
      if (inside) break;
      inside = true;
    } else if (inside) {
      out.push(line.trimEnd());
    }
  }
  return out.join('\n');
}

function hasTag(tags: unknown, tag: string): boolean {
  if (Array.isArray(tags)) return tags.includes(tag);
  return typeof tags === 'string' && tags.includes(tag);
}

/** The README metadata rules of spec §5 in the real assistant's order. */
export function checkReadme(file: string): ReadmeCheck {
  let meta: unknown;
  try {
    meta = parse(frontmatterText(readFileSync(file, 'utf8')));
  } catch (err) {
    return { ok: false, message: `Error parsing YAML metadata: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || Object.keys(meta).length === 0) {
    return { ok: false, message: 'README.md is missing metadata section.' };
  }
  const m = meta as Record<string, unknown>;
  if (!('title' in m)) return { ok: false, message: 'README.md is missing the title key in metadata.' };
  if (m.title === '' || m.title === null) return { ok: false, message: 'README.md title cannot be empty.' };
  if (!('tags' in m)) return { ok: false, message: 'README.md is missing the tags key in metadata.' };
  if (!hasTag(m.tags, 'reachy_mini')) return { ok: false, message: 'README.md must contain the "reachy_mini" tag' };
  if (!hasTag(m.tags, 'reachy_mini_python_app') && !hasTag(m.tags, 'reachy_mini_js_app')) {
    return { ok: false, message: 'README.md must contain either the "reachy_mini_python_app" or "reachy_mini_js_app" tag' };
  }
  return { ok: true };
}
