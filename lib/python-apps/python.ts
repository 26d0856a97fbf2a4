import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

// Which Python, and where things are in a virtual environment made with it.

/** The Python that reads pyproject.toml and makes venvs for `robotctl app` and `up` (`ROBOTCTL_PYTHON`, else python3). */
export function pythonCommand(env: NodeJS.ProcessEnv): string {
  return env.ROBOTCTL_PYTHON || 'python3';
}

export function venvPython(dir: string): string {
  return process.platform === 'win32' ? join(dir, 'Scripts', 'python.exe') : join(dir, 'bin', 'python');
}

/** The venv's site-packages, read from its layout (lib/python3.X/site-packages) without starting Python. */
export async function sitePackagesOf(dir: string): Promise<string> {
  if (process.platform === 'win32') return join(dir, 'Lib', 'site-packages');
  const lib = join(dir, 'lib');
  const py = (await readdir(lib)).find((n) => n.startsWith('python'));
  if (!py) throw new Error(`no lib/python* in ${dir}`);
  return join(lib, py, 'site-packages');
}
