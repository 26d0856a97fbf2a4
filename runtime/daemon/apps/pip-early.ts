import { runCommand, type RunOptions } from '../../../lib/python-apps/run.js';

// `python -m pip install …` spends most of its CPU importing pip (about
// 0.6–1.0 s; the install of a small wheel itself is a few milliseconds,
// after the resolver and the wheel installer are imported, ~0.1 s). When
// pip is to install a wheel that is still being built (build-wheel.ts), its
// process is started at once: it imports pip's command line and its install
// command on the other core while the backend builds, then reads its
// arguments from stdin and runs pip's own main() with them, exactly what
// `python -m pip <args>` runs. When the build fails it is killed before it
// runs anything.

const PIP_MAIN = [
  'import json, os, sys',
  // As pip's __main__ does: the working folder must not shadow pip's imports.
  'sys.path[:] = [p for p in sys.path if p not in ("", os.getcwd())]',
  'from pip._internal.cli.main import main',
  'import pip._internal.commands.install',
  // What an install imports only once it runs (pip 23-24; another pip may
  // lack some, and then imports what it needs itself): while the wheel builds.
  'import importlib',
  'for m in ("pip._internal.resolution.resolvelib.resolver", "pip._internal.cache", "importlib.metadata", "pip._internal.operations.install.wheel"):',
  '    try:',
  '        importlib.import_module(m)',
  '    except ImportError:',
  '        pass',
  'line = sys.stdin.readline()',
  'code = main(json.loads(line)) if line.strip() else 0',
  // pip is done (its files written and closed, its temp folders removed):
  // end here, without the interpreter's teardown of every module pip
  // imported, about 0.27 s of CPU after its last line (measured).
  'sys.stdout.flush()',
  'sys.stderr.flush()',
  'os._exit(code or 0)',
].join('\n');

export interface EarlyPip {
  /** Runs pip with these arguments (after `-m pip`); resolves when pip exits 0. */
  run(args: string[]): Promise<void>;
  /** The arguments will never come: the process ends without running pip. */
  cancel(): Promise<void>;
}

/** Starts the venv's pip now; `run` gives it its arguments later. */
export function startPipEarly(python: string, run: RunOptions): EarlyPip {
  let give: (line: string | null) => void = () => {};
  let given = false;
  const input = new Promise<string | null>((resolve) => { give = resolve; });
  // Cancelled before its arguments came, it is killed rather than left to finish importing.
  const unused = new AbortController();
  const signal = run.signal ? AbortSignal.any([run.signal, unused.signal]) : unused.signal;
  const exited = runCommand(python, ['-c', PIP_MAIN], { ...run, input, signal });
  exited.catch(() => {}); // awaited by run() or cancel()
  return {
    run: async (args) => {
      run.onLine?.(`Running command: ${python} -m pip ${args.join(' ')}`);
      given = true;
      give(`${JSON.stringify(args)}\n`);
      await exited;
    },
    cancel: async () => {
      if (!given) unused.abort();
      give(null);
      await exited.catch(() => {});
    },
  };
}
