import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

// Which files of an app folder `app publish` uploads: everything but what the
// app's .gitignore excludes (matched by the `ignore` package, which follows
// git's rules, escapes included) and what never goes to a Space.

/** Build output, caches, local environments, VCS data: skipped whatever .gitignore says (no `!` brings them back). */
const ALWAYS_SKIP = ['.git/', '__pycache__/', '*.egg-info/', 'build/', 'dist/', '.venv/', 'venv/', '*.pyc', '.DS_Store'];

function rulesOf(root: string): Ignore {
  const gitignore = join(root, '.gitignore');
  return ignore().add(existsSync(gitignore) ? readFileSync(gitignore, 'utf8') : '');
}

/** Relative `/`-separated paths of the files to upload, sorted. */
export function listAppFiles(root: string): string[] {
  const always = ignore().add(ALWAYS_SKIP);
  const user = rulesOf(root);
  const out: string[] = [];
  const walk = (dir: string, prefix: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isSymbolicLink()) continue;
      // A trailing slash lets `dir/` patterns match folders only, as in git.
      const asked = e.isDirectory() ? `${rel}/` : rel;
      if (always.ignores(asked) || user.ignores(asked)) continue;
      if (e.isDirectory()) walk(join(dir, e.name), rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  walk(root, '');
  return out.sort();
}
