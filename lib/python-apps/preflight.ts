import { execFile } from 'node:child_process';
import { indexModeCache } from './package-index.js';
import { findWheelFile, wheelsDir } from './wheel-file.js';

// What a machine needs before a simulated robot can install and run Python
// apps, checked in about a second so a missing piece is said at once (with
// its fix) instead of after the first install fails a minute later: the
// interpreter, its venv module (Debian's python3-venv brings ensurepip, without
// which `python -m venv` fails), and, offline, the `wheel` package as a local
// file. The probe makes a venv without pip in the temp folder and removes it:
// a full one takes seconds and is made by the daemon anyway.

export interface PythonNeed {
  /** What is missing, in words. */
  piece: string;
  /** Debian packages that bring it. */
  packages: string[];
}

const MIN_MINOR = 10;

const PROBE = `import shutil, sys, tempfile
print("%d.%d" % sys.version_info[:2], flush=True)
try:
    import ensurepip, venv
except ImportError as e:
    print("missing", e.name); sys.exit(0)
d = tempfile.mkdtemp(prefix="robotctl-preflight-")
try:
    venv.create(d, with_pip=False)
finally:
    shutil.rmtree(d, ignore_errors=True)
print("venv-ok")
`;

interface ProbeResult { missing: 'python' | null; error: string; stdout: string }

function probe(python: string, env: NodeJS.ProcessEnv): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(python, ['-c', PROBE], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      const missing = (err as NodeJS.ErrnoException | null)?.code === 'ENOENT' ? 'python' : null;
      const error = err ? (stderr.trim().split('\n').pop() ?? '') || err.message : '';
      resolve({ missing, error, stdout });
    });
  });
}

async function interpreterNeeds(python: string, env: NodeJS.ProcessEnv): Promise<PythonNeed[]> {
  const r = await probe(python, env);
  if (r.missing) return [{ piece: `${python} not found (ROBOTCTL_PYTHON names another Python)`, packages: ['python3', 'python3-venv'] }];
  const [version = '', status = ''] = r.stdout.trim().split('\n');
  const minor = /^3\.(\d+)$/.exec(version)?.[1];
  if (minor === undefined || Number(minor) < MIN_MINOR) {
    const found = version || `unknown (${r.error})`;
    return [{ piece: `${python} is Python ${found}; apps need 3.${MIN_MINOR} or newer: install one and name it in ROBOTCTL_PYTHON`, packages: [] }];
  }
  if (status.startsWith('missing')) return [{ piece: `${python} cannot create virtual environments (no module ${status.slice(8) || 'venv'})`, packages: ['python3-venv'] }];
  if (status !== 'venv-ok') return [{ piece: `${python} -m venv failed: ${r.error}`, packages: ['python3-venv'] }];
  return [];
}

async function wheelNeeds(env: NodeJS.ProcessEnv, offline: boolean): Promise<PythonNeed[]> {
  if (findWheelFile(env)) return [];
  const mode = await indexModeCache(env, { offline })();
  if (mode.online) return []; // build isolation fetches the build backend from the index
  return [{ piece: `offline (${mode.reason}), pip needs the 'wheel' package as a local file, and there is no ${wheelsDir(env)}/wheel-*.whl`, packages: ['python3-wheel-whl'] }];
}

/** Every missing piece; none when the machine can install and run apps. */
export async function pythonNeeds(opts: { python: string; env: NodeJS.ProcessEnv; offline?: boolean }): Promise<PythonNeed[]> {
  const needs = await interpreterNeeds(opts.python, opts.env);
  if (needs.some((n) => n.packages.length === 0)) return needs; // too old: nothing else matters until it is replaced
  return [...needs, ...(await wheelNeeds(opts.env, opts.offline === true))];
}

/** One message: what is missing, then one command that installs all of it. */
export function needsMessage(needs: PythonNeed[]): string {
  const packages = [...new Set(needs.flatMap((n) => n.packages))];
  return `${needs.map((n) => n.piece).join('; ')}${packages.length > 0 ? `. Fix: apt-get install ${packages.join(' ')}` : ''}`;
}
