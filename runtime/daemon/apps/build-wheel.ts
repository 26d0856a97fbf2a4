import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CommandError, runCommand, type RunOptions } from '../../../lib/python-apps/run.js';

// The build step of `pip install --no-build-isolation <folder>` on its own:
// the source's PEP 517 build backend (pyproject.toml's build-system, the
// setuptools legacy backend when it names none) is imported from the venv and
// its build_wheel hook called, as pip does in its hook subprocess. pip would
// first run a second hook subprocess, prepare_metadata_for_build_wheel, whose
// metadata it needs only to resolve dependencies (--no-deps: none): that
// subprocess imports the backend once more and costs about 0.5 s of CPU a
// build. pip then installs the wheel built here (installed-tree.ts).

// Read by python -c: argv[1] is the source folder, argv[2] the wheel folder.
const BUILD_WHEEL = [
  'import importlib, os, sys',
  'try:',
  '    import tomllib',
  'except ImportError:',
  '    from pip._vendor import tomli as tomllib',
  'src, out = sys.argv[1], sys.argv[2]',
  'path = os.path.join(src, "pyproject.toml")',
  'system = {}',
  'if os.path.exists(path):',
  '    with open(path, "rb") as f:',
  '        system = tomllib.load(f).get("build-system", {})',
  'spec = system.get("build-backend", "setuptools.build_meta:__legacy__")',
  'sys.path[:0] = [os.path.join(src, p) for p in system.get("backend-path", [])]',
  'os.chdir(src)',
  'module, _, attrs = spec.partition(":")',
  'backend = importlib.import_module(module)',
  'for a in filter(None, attrs.split(".")):',
  '    backend = getattr(backend, a)',
  'print("built " + backend.build_wheel(out))',
  // The wheel is written and closed: end without the interpreter's teardown
  // of everything the backend imported (as pip-early.ts does).
  'sys.stdout.flush()',
  'sys.stderr.flush()',
  'os._exit(0)',
].join('\n');

/** Builds the wheel of `src` into `out` (made if missing) with the venv's `python`; resolves to the wheel's path. */
export async function buildWheel(python: string, src: string, out: string, run: RunOptions): Promise<string> {
  await mkdir(out, { recursive: true });
  run.onLine?.(`Running command: ${python} -c '<the build_wheel hook of the PEP 517 backend>' ${src} ${out}`);
  // The backend's own chatter (setuptools prints every step) is not logged,
  // as pip does not show it: a failure's last lines are in the error.
  const lines = await runCommand(python, ['-c', BUILD_WHEEL, src, out], { ...run, onLine: undefined }).catch((err: unknown) => {
    if (!(err instanceof CommandError) || (err.code === null && err.signal === null)) throw err;
    for (const l of err.tail) run.onLine?.(l);
    const how = err.code !== null ? `exit code ${err.code}` : `killed by ${err.signal ?? 'a signal'}`;
    throw new Error(`building the wheel of ${src} failed (${how})${err.tail.length ? `: ${err.tail[err.tail.length - 1]}` : ''}`);
  });
  const name = lines.filter((l) => l.startsWith('built ')).pop()?.slice('built '.length)
    ?? (await readdir(out)).find((n) => n.endsWith('.whl'));
  if (!name) throw new Error(`the build backend made no wheel from ${src}`);
  run.onLine?.(`Built ${name}`);
  return join(out, name);
}
