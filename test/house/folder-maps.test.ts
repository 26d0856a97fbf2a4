import t from 'tap';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { ROOT } from '../helpers/root.js';

// Each source folder's README.md is a map of its files (PREAMBLE: "update the
// map of every folder where you add, move or remove a file"): every file of
// the folder is named in its map (by name, path, or a sub-folder the map
// names), and every file a map's table names in its first column exists.
// A file belongs to the nearest folder below with a map of its own.

const MAPPED = ['bench', 'bin', 'cli', 'drivers', 'examples', 'lib', 'reconciler', 'runtime', 'schema', 'sdk', 'state', 'test'];
// What is not source: build output, caches, the apps' own READMEs (they are app files, not maps).
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '__pycache__', 'build', 'test-output']);
const FILE_NAME = /[\w.-]+\.(?:ts|mts|js|mjs|cjs|json|html|css|py|sh|yaml|toml)\b/g;

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || SKIPPED_DIRS.has(e.name) || e.name.endsWith('.egg-info')) continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(full));
    else out.push(full);
  }
  return out;
}

/** The folders whose README.md is a map: each mapped top folder and every folder below it with a README, but app folders. */
function mapFolders(files: string[]): string[] {
  return files.filter((f) => basename(f) === 'README.md').map((f) => relative(ROOT, join(f, '..')))
    .filter((d) => MAPPED.includes(d) || (MAPPED.includes(d.split('/')[0] ?? '') && /^(drivers|runtime|lib)\/[^/]+$/.test(d)));
}

const files = MAPPED.flatMap((d) => walk(join(ROOT, d)));
const maps = mapFolders(files);

t.test('the maps were found', async (t) => {
  for (const d of ['lib', 'lib/python-apps', 'drivers/daemon', 'runtime/hub', 'runtime/fleet-page', 'schema', 'state']) t.ok(maps.includes(d), `${d} has a map`);
});

t.test('every file is named in the map of its folder', async (t) => {
  const unlisted: string[] = [];
  for (const file of files) {
    const rel = relative(ROOT, file);
    if (basename(rel) === 'README.md') continue;
    const owner = maps.filter((d) => rel.startsWith(`${d}/`)).sort((a, b) => b.length - a.length)[0];
    if (owner === undefined) continue;
    const text = readFileSync(join(ROOT, owner, 'README.md'), 'utf8');
    const inner = rel.slice(owner.length + 1);
    const parts = inner.split('/');
    const named = text.includes(basename(inner)) || text.includes(inner)
      || parts.slice(0, -1).some((_, i) => text.includes(`${parts.slice(0, i + 1).join('/')}/`));
    if (!named) unlisted.push(`${owner}/README.md lacks ${inner}`);
  }
  t.same(unlisted, [], unlisted.join('\n'));
});

t.test('every file a map\'s table names exists', async (t) => {
  const stale: string[] = [];
  for (const d of maps) {
    const own = files.map((f) => relative(join(ROOT, d), f)).filter((f) => !f.startsWith('..'));
    for (const line of readFileSync(join(ROOT, d, 'README.md'), 'utf8').split('\n')) {
      const first = /^\|([^|]+)\|/.exec(line)?.[1] ?? '';
      for (const name of first.match(FILE_NAME) ?? []) {
        if (own.includes(name) || own.some((f) => basename(f) === basename(name)) || existsSync(join(ROOT, name))) continue;
        stale.push(`${d}/README.md names ${name}, which is not there`);
      }
    }
  }
  t.same(stale, [], stale.join('\n'));
});
