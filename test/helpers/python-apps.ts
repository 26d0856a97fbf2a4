import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

// Tiny throwaway Python apps (stdlib only) for the daemon, the reconciler and
// the agent: the folder a user would publish, built inline by the test.

/** Imports and a `post(path, body)` to the daemon every app body may use. */
export const PRELUDE = `
import json, os, signal, sys, time, urllib.request
URL = os.environ.get("ROBOT_DAEMON_URL", "http://127.0.0.1:8000")
def post(path, body):
    req = urllib.request.Request(URL + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read() or b"null")
`;

/** Runs until SIGINT, then exits 0 like the template (touches nothing, so it never hides a test's own writes). */
export const QUIET_LOOP = `    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
`;

export const QUIET_BODY = `
def main():
${QUIET_LOOP}`;

/** Writes its pid to $AGENT_TEST_PIDS/<daemon port>-<app>.pid (a restart shows as a new pid), then waits for SIGINT. */
export function pidFileBody(app: string): string {
  return `
def main():
    pids = os.environ.get("AGENT_TEST_PIDS")
    if pids:
        port = URL.rsplit(":", 1)[-1]
        with open(os.path.join(pids, f"{port}-${app}.pid"), "w") as f:
            f.write(str(os.getpid()))
${QUIET_LOOP}`;
}

/** Runs `seconds`, then raises RuntimeError(`message`): a revision that passes a short start and crashes inside the health gate. */
export function crashAfterBody(seconds: number, message: string): string {
  return `
def main():
    time.sleep(${seconds})
    raise RuntimeError(${JSON.stringify(message)})
`;
}

/** The apps of the daemon's lifecycle tests (one bundle holds them all). */
export const BODIES = {
  /** Moves the head until SIGINT, then exits 0 like the template. */
  cooperative: `
def main():
    print(f"pid {os.getpid()}", flush=True)
    try:
        while True:
            post("/api/move/set_target", {"target_head_pose": {"yaw": 0.3}, "target_antennas": [0.2, -0.2]})
            time.sleep(0.02)
    except KeyboardInterrupt:
        print("App is stopping...")
`,
  crash: `
def main():
    for i in range(12):
        print(f"line {i}", file=sys.stderr)
    sys.exit(3)
`,
  oneshot: `
def main():
    print("hello once")
`,
  /** Ignores SIGINT and leaves a child in its group. */
  stubborn: `
import subprocess
def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", "import time, signal; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(600)"])
    print(f"child {child.pid}", flush=True)
    while True:
        time.sleep(0.1)
`,
  /** Starts a long goto and then waits for SIGINT. */
  mover: `
def main():
    post("/api/move/goto", {"head_pose": {"pitch": 0.3}, "duration": 30})
${QUIET_LOOP}`,
} as const;

export interface PyprojectOptions {
  version?: string;
  /** Entry point name → package (each gets `<pkg>.main:App`). */
  entries: Record<string, string>;
  packages: string[];
  dependencies?: string[];
}

/** A setuptools pyproject.toml declaring `reachy_mini_apps` entry points. */
export function pyproject(name: string, o: PyprojectOptions): string {
  const deps = o.dependencies ? `dependencies = [${o.dependencies.map((d) => JSON.stringify(d)).join(', ')}]\n` : '';
  return `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "${name}"
version = "${o.version ?? '0.1.0'}"
requires-python = ">=3.10"
${deps}
[project.entry-points."reachy_mini_apps"]
${Object.entries(o.entries).map(([entry, pkg]) => `${entry} = "${pkg}.main:App"`).join('\n')}

[tool.setuptools]
packages = [${o.packages.map((p) => `"${p}"`).join(', ')}]
`;
}

/** main.py of an app: the prelude, an App class, the body's main(). */
export function appMain(body: string): string {
  return `${PRELUDE}\nclass App:\n    pass\n${body}\nif __name__ == "__main__":\n    main()\n`;
}

/** The files of a one-package app `name` as {relative path: text} (a hub commit's body, or writeFiles' input). */
export function appFiles(name: string, body: string, opts: { pkg?: string; entry?: string; version?: string; marker?: string } = {}): Record<string, string> {
  const pkg = opts.pkg ?? name;
  return {
    'pyproject.toml': pyproject(name, { entries: { [opts.entry ?? pkg]: pkg }, packages: [pkg], ...(opts.version ? { version: opts.version } : {}) }),
    [`${pkg}/__init__.py`]: `MARKER = ${JSON.stringify(opts.marker ?? 'v1')}\n`,
    [`${pkg}/main.py`]: appMain(body),
  };
}

/** Write {relative path: text} under dir; returns dir. */
export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/** A package `<pkg>` with entry point `<entry>` (defaults to the package name), in root/name. */
export function makeApp(root: string, name: string, body: string, opts: { pkg?: string; entry?: string; version?: string; marker?: string } = {}): string {
  return writeFiles(join(root, name), appFiles(name, body, opts));
}

/** Many apps in one distribution: one pip run instead of one per app (pip costs ~1 s of CPU). */
export function makeBundle(root: string, name: string, apps: Record<string, string>): string {
  const pkgs = Object.keys(apps);
  const files: Record<string, string> = {
    'pyproject.toml': pyproject(name, { entries: Object.fromEntries(pkgs.map((p) => [p, p])), packages: pkgs, dependencies: ['robotctl_missing_dep>=1', 'pip'] }),
  };
  for (const [pkg, body] of Object.entries(apps)) {
    files[`${pkg}/__init__.py`] = '';
    files[`${pkg}/main.py`] = appMain(body);
  }
  return writeFiles(join(root, name), files);
}

/** Every file under dir as {relative path: text}: the body of a hub commit. */
export function treeFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
