import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { copyTree } from '../copy-tree.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pruneCache, readJson, stagingCopy, touchEntry, treeHash } from './files.js';
import { atomicWrite } from '../atomic-write.js';
import { CommandError, runCommand, type RunOptions } from './run.js';
import { wheelMissing } from './wheel-file.js';
import { installWheelTool, makeVenv, VenvError, type Venv } from './venv.js';
import { venvFailure } from './venv-failure.js';
import { sitePackagesOf, venvPython } from './python.js';
import { sdkDir, sdkIsStandIn } from './sdk.js';
import { exposeSystemNumpy, numpyLinksFor } from './system-numpy.js';

// The daemon's apps share one virtual environment, <appsDir>/venv. Creating
// one costs seconds (python -m venv, then wheel and the SDK), so a finished
// template keyed by the interpreter and the SDK's content hash is kept in
// os.tmpdir() and copied (~50 ms); `app check`'s venvs are copies of it too
// (check-venv.ts). pip is always run as `python -m pip`, so the copied
// scripts' shebangs never matter. Debian's numpy is made visible to the apps
// venv from <appsDir>/numpy-links-of-venv (system-numpy.ts).

const MARKER = '.robotctl-venv.json';
/** Templates kept in the temp folder: one per interpreter and SDK in use, a few at most. */
const TEMPLATES_KEPT = 4;
const pending = new Map<string, Promise<Venv>>();
const templateBuilds = new Map<string, Promise<string>>();

export function venvDir(appsDir: string): string {
  return join(appsDir, 'venv');
}

/** The SDK the venv gets at creation: none when sdk/python is the reachy-mini stand-in, installed only where needed (runtime/daemon/apps/install-deps.ts). */
async function sdkHash(): Promise<string> {
  if (sdkIsStandIn()) return 'standin-on-demand';
  return existsSync(join(sdkDir(), 'pyproject.toml')) ? (await treeHash(sdkDir())).slice(0, 16) : 'nosdk';
}

async function installSdk(python: string, run: RunOptions): Promise<void> {
  if (!existsSync(join(sdkDir(), 'pyproject.toml')) || sdkIsStandIn()) return;
  const stage = await stagingCopy(sdkDir(), 'sdk');
  try {
    await runCommand(python, ['-m', 'pip', 'install', '--no-index', '--no-deps', '--no-build-isolation', '--force-reinstall', stage.dir], run);
  } finally {
    await stage.cleanup();
  }
}

/** The interpreter's path and version, which key the template; a Python that cannot answer fails as `-m venv` would. */
async function identity(basePython: string, run: RunOptions): Promise<[exe: string, version: string]> {
  try {
    const [exe = basePython, version = ''] = await runCommand(basePython, ['-c', 'import sys; print(sys.executable); print(sys.version)'], run);
    return [exe, version];
  } catch (err) {
    const detail = err instanceof CommandError && err.tail.length > 0 ? err.tail.slice(-3).join(' ') : (err as Error).message;
    throw new VenvError(venvFailure(basePython, { signal: err instanceof CommandError ? err.signal : null, detail }));
  }
}

export interface TemplateOptions {
  log?: (line: string) => void;
  /** The daemon's marker for what it spawns. */
  marker?: string;
  /** false for the CLI: a Ctrl-C reaches python (run.ts). */
  ownGroup?: boolean;
}

/**
 * The machine's venv template for basePython: python -m venv, the wheel tool
 * (a warning in the log when its file is missing) and a non-stand-in SDK;
 * made now if missing. The daemon's apps venvs and `app check`'s venvs are
 * copies of it.
 */
export async function venvTemplate(basePython: string, env: NodeJS.ProcessEnv, opts: TemplateOptions = {}): Promise<string> {
  const log = opts.log ?? ((): void => {});
  const run: RunOptions = { marker: opts.marker, ownGroup: opts.ownGroup };
  const sdk = await sdkHash();
  const [exe, version] = await identity(basePython, run);
  const key = createHash('sha256').update(`${exe}\n${version}\n${sdk}`).digest('hex').slice(0, 16);
  const template = join(tmpdir(), `robotctl-apps-venv-${key}`);
  if (existsSync(join(template, MARKER))) {
    await touchEntry(template);
    return template;
  }
  // The robots of one process (`up`, `--robots N`) starting at once share one build.
  let build = templateBuilds.get(template);
  if (!build) {
    build = buildTemplate(template, basePython, env, JSON.stringify({ sdk, python: exe, version }), run, log).finally(() => templateBuilds.delete(template));
    templateBuilds.set(template, build);
  }
  return build;
}

async function buildTemplate(template: string, basePython: string, env: NodeJS.ProcessEnv, note: string, run: RunOptions, log: (line: string) => void): Promise<string> {
  const building = `${template}.build-${process.pid}-${Date.now()}`;
  log(`Creating the apps virtual environment with ${basePython} -m venv`);
  try {
    await makeVenv(basePython, [building], run);
    const python = venvPython(building);
    if (!(await installWheelTool(python, env, { ...run, onLine: log }))) log(`Warning: ${wheelMissing(env)}`);
    await installSdk(python, { ...run, onLine: log });
    await atomicWrite(join(building, MARKER), note);
  } catch (err) {
    // A failed or interrupted build leaves nothing in the temp folder (a venv is ~25 MB).
    await rm(building, { recursive: true, force: true });
    throw err;
  }
  // Another process may have won the race: then its template is as good as ours.
  await rename(building, template).catch(() => rm(building, { recursive: true, force: true }));
  // Templates of older SDKs or interpreters (25 MB each), and aborted builds.
  await pruneCache('robotctl-apps-venv-', template, TEMPLATES_KEPT);
  return template;
}

async function create(appsDir: string, basePython: string, log: (l: string) => void, env: NodeJS.ProcessEnv, marker?: string): Promise<Venv> {
  const dir = venvDir(appsDir);
  const sdk = await sdkHash();
  if (!existsSync(join(dir, MARKER))) {
    const template = await venvTemplate(basePython, env, { log, marker });
    await mkdir(appsDir, { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    await copyTree(template, tmp);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir);
  }
  const python = venvPython(dir);
  const note = (await readJson(join(dir, MARKER))) as { sdk?: string } | null;
  if (note?.sdk !== sdk) {
    log('Updating the app SDK in the apps virtual environment');
    await installSdk(python, { onLine: log, marker });
    await atomicWrite(join(dir, MARKER), JSON.stringify({ ...note, sdk }));
  }
  const sitePackages = await sitePackagesOf(dir);
  // Every start: a venv made before this existed, or Debian's numpy installed or upgraded since.
  await exposeSystemNumpy(sitePackages, numpyLinksFor(dir), env);
  return { dir, python, sitePackages };
}

/** The apps venv, created on first use; concurrent callers share one creation. */
export function ensureVenv(appsDir: string, basePython: string, log: (l: string) => void = () => {}, marker?: string, env: NodeJS.ProcessEnv = process.env): Promise<Venv> {
  const key = venvDir(appsDir);
  let p = pending.get(key);
  if (!p) {
    p = create(appsDir, basePython, log, env, marker).finally(() => pending.delete(key));
    pending.set(key, p);
  }
  return p;
}

/** The venv if it already exists (listing never creates one). */
export async function existingVenv(appsDir: string): Promise<Venv | null> {
  const dir = venvDir(appsDir);
  if (!existsSync(join(dir, MARKER))) return null;
  return { dir, python: venvPython(dir), sitePackages: await sitePackagesOf(dir) };
}
