import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ExitError } from '../../lib/errors.js';
import type { Io } from '../../lib/io.js';
import { className } from '../../lib/python-apps/names.js';
import { readPyproject, PyprojectError, tomlGet, isTable, type Toml } from './pyproject.js';
import { checkReadme } from './readme.js';
import { fail, info, ok } from './report.js';

export interface AppLayout {
  /** Absolute app root (the folder of pyproject.toml). */
  root: string;
  /** `[project].name`: the entry-point name and the pip distribution. */
  name: string;
  pkg: string;
  className: string;
  /** Absolute package folder (flat or src layout). */
  pkgDir: string;
}

/** pkg from the entry point value when it has one, like the real assistant. */
function packageName(name: string, entries: unknown): string {
  const normalized = name.replaceAll('-', '_');
  const value = isTable(entries) ? entries[name] ?? entries[normalized] : undefined;
  if (typeof value === 'string' && value.includes(':')) return value.split(':')[0]!.split('.')[0]!;
  return normalized;
}

async function loadProject(root: string, io: Io): Promise<{ toml: Toml; name: string }> {
  const file = join(root, 'pyproject.toml');
  if (!existsSync(file)) {
    fail(io, 'pyproject.toml is missing', 'Make sure you are providing the path to the root of the app. This is the folder that contains pyproject.toml.');
  }
  let toml: Toml;
  try {
    toml = await readPyproject(file, io.env);
  } catch (err) {
    if (err instanceof PyprojectError) fail(io, err.inApp);
    throw err;
  }
  const name = tomlGet(toml, 'project', 'name');
  if (typeof name !== 'string' || name === '') fail(io, 'Project name is missing in pyproject.toml');
  return { toml, name };
}

function findPackage(root: string, pkg: string, io: Io): string {
  for (const dir of [join(root, pkg), join(root, 'src', pkg)]) {
    if (existsSync(join(dir, '__init__.py'))) {
      ok(io, `Package '${pkg}' found at ${relative(root, dir)}/`);
      return dir;
    }
  }
  return fail(io, `Package folder '${pkg}' not found`, `   Checked: ${join(root, pkg)}/`, `   Checked: ${join(root, 'src', pkg)}/`);
}

function checkEntryPoint(toml: Toml, name: string, pkg: string, cls: string, io: Io): void {
  const eps = tomlGet(toml, 'project', 'entry-points');
  if (eps === undefined) fail(io, 'pyproject.toml is missing the entry-points section');
  const group = tomlGet(eps, 'reachy_mini_apps');
  if (group === undefined) fail(io, 'pyproject.toml is missing the reachy_mini_apps entry-points section');
  const want = `${pkg}.main:${cls}`;
  const entries = isTable(group) ? Object.entries(group) : [];
  for (const [k, v] of entries) info(io, `Found entrypoint: ${k} = "${String(v)}"`);
  if (!entries.some(([k, v]) => k === name && v === want)) fail(io, `pyproject.toml is missing the entrypoint for the app: ${name} = "${want}"`);
  ok(io, 'pyproject.toml contains the correct entrypoint for the app.');
}

function checkMain(root: string, pkgDir: string, cls: string, io: Io): void {
  const main = join(pkgDir, 'main.py');
  if (!existsSync(main)) fail(io, 'main.py is missing');
  ok(io, `${relative(root, main)} exists.`);
  // The real rule is this exact substring: no space, no other base class.
  if (!readFileSync(main, 'utf8').includes(`class ${cls}(ReachyMiniApp)`)) fail(io, `main.py is missing the class ${cls} that inherits from ReachyMiniApp`);
  ok(io, `main.py contains the class ${cls} that inherits from ReachyMiniApp.`);
}

/** Every file rule of spec §5 in order; the first failure prints its message and exits 1. */
export async function checkLayout(path: string, io: Io): Promise<AppLayout> {
  const root = resolve(io.cwd, path);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    // The real assistant prints this one without a tag.
    io.err(`App path ${root} does not exist.\n`);
    throw new ExitError(1);
  }
  const { toml, name } = await loadProject(root, io);
  const pkg = packageName(name, tomlGet(toml, 'project', 'entry-points', 'reachy_mini_apps'));
  const cls = className(pkg);
  info(io, `\tExpected package name: ${pkg}\n\tExpected class name: ${cls}\n\tExpected entrypoint name: ${name}\n`);
  if (!existsSync(join(root, 'index.html'))) fail(io, 'index.html is missing');
  if (!existsSync(join(root, 'style.css'))) fail(io, 'style.css is missing');
  ok(io, 'index.html and style.css exist in the root of the app.');
  const pkgDir = findPackage(root, pkg, io);
  checkEntryPoint(toml, name, pkg, cls, io);
  checkMain(root, pkgDir, cls, io);
  if (!existsSync(join(root, 'README.md'))) fail(io, 'README.md is missing');
  ok(io, 'README.md exists in the root of the app.');
  const readme = checkReadme(join(root, 'README.md'));
  if (!readme.ok) fail(io, readme.message);
  ok(io, 'README.md contains the required metadata.');
  return { root, name, pkg, className: cls, pkgDir };
}
