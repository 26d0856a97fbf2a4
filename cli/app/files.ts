import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

// What never goes to the Space, whatever .gitignore says: build output,
// caches, local environments, VCS data.
const ALWAYS_SKIP = ['.git/', '__pycache__/', '*.egg-info/', 'build/', 'dist/', '.venv/', 'venv/', '*.pyc', '.DS_Store'];

interface Rule {
  re: RegExp;
  dirOnly: boolean;
  negate: boolean;
}

function globToRe(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '[' && glob.indexOf(']', i + 1) > i + 1) {
      const end = glob.indexOf(']', i + 1);
      out += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
      i = end;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

/** The subset of gitignore people write: globs, `dir/`, `/anchored`, `!negation`, `#` comments. */
export function parseIgnore(lines: string[]): Rule[] {
  const rules: Rule[] = [];
  for (const raw of lines) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.slice(0, -1);
    const anchored = line.startsWith('/') || line.includes('/');
    line = line.replace(/^\//, '');
    const body = globToRe(line);
    rules.push({ re: new RegExp(anchored ? `^${body}$` : `(^|/)${body}$`), dirOnly, negate });
  }
  return rules;
}

function ignored(rules: Rule[], rel: string, isDir: boolean): boolean {
  let result = false;
  for (const r of rules) if ((!r.dirOnly || isDir) && r.re.test(rel)) result = !r.negate;
  return result;
}

/** Relative `/`-separated paths of the files to upload, sorted. */
export function listAppFiles(root: string): string[] {
  const gitignore = join(root, '.gitignore');
  const extra = existsSync(gitignore) ? readFileSync(gitignore, 'utf8').split(/\r?\n/) : [];
  const rules = parseIgnore([...ALWAYS_SKIP, ...extra]);
  const out: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isSymbolicLink()) continue;
      if (ignored(rules, rel, e.isDirectory())) continue;
      if (e.isDirectory()) walk(join(dir, e.name), rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  walk(root, '');
  return out.sort();
}
