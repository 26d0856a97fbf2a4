import { UserError } from '../../lib/errors.js';
import { runProcess, tail } from '../../lib/python-apps/process.js';
import { pythonCommand } from '../../lib/python-apps/python.js';

// pyproject.toml is parsed by Python's own tomllib (3.11+; pip's vendored
// tomli on 3.10) rather than a TOML subset parser written here: it is the
// parser pip and setuptools use on the same file, so `app check` can never
// disagree with the install it predicts, and Python is needed for the venv
// step anyway. The cost is one short python3 process (~30 ms).
const SCRIPT = [
  'import json, sys',
  'try:',
  '    import tomllib',
  'except ImportError:',
  '    from pip._vendor import tomli as tomllib',
  'with open(sys.argv[1], "rb") as f:',
  '    try:',
  '        data = tomllib.load(f)',
  '    except tomllib.TOMLDecodeError as e:',
  '        print(e, file=sys.stderr); sys.exit(3)',
  // Dates and times are not JSON: stringify them, nothing we read is one.
  'json.dump(data, sys.stdout, default=str)',
].join('\n');

export type Toml = Record<string, unknown>;

/**
 * A user's file that cannot be read: one line naming it, never "internal
 * error" (issue 30.6). `inApp` says the same relative to the app's folder,
 * as `app check`'s report words every finding.
 */
export class PyprojectError extends UserError {
  constructor(message: string, readonly inApp: string) {
    super(message);
  }
}

export async function readPyproject(file: string, env: NodeJS.ProcessEnv): Promise<Toml> {
  const python = pythonCommand(env);
  const r = await runProcess(python, ['-c', SCRIPT, file], { env: { ...env, PYTHONIOENCODING: 'utf-8' } });
  if (r.code === 3) {
    const why = `is not valid TOML: ${tail(r.stderr, 1)}`;
    throw new PyprojectError(`${file} ${why}`, `pyproject.toml ${why}`);
  }
  if (r.code === 127) {
    const msg = `cannot run ${python} to read pyproject.toml: ${tail(r.stderr, 1)} (install python3 or set ROBOTCTL_PYTHON)`;
    throw new PyprojectError(msg, msg);
  }
  if (r.code !== 0) {
    const msg = `cannot read pyproject.toml with ${python}: ${tail(r.stderr, 3)}`;
    throw new PyprojectError(msg, msg);
  }
  return JSON.parse(r.stdout) as Toml;
}

/** `table.a.b` of a parsed TOML document, or undefined. */
export function tomlGet(doc: unknown, ...keys: string[]): unknown {
  let cur: unknown = doc;
  for (const key of keys) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

export function isTable(value: unknown): value is Toml {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
