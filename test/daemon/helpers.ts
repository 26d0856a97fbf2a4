import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';

// Tiny throwaway Python apps (stdlib only) and a daemon + driver pair per test.

export const PRELUDE = `
import json, os, signal, sys, time, urllib.request
URL = os.environ.get("ROBOT_DAEMON_URL", "http://127.0.0.1:8000")
def post(path, body):
    req = urllib.request.Request(URL + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read() or b"null")
`;

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
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        pass
`,
} as const;

/** A package `<pkg>` with entry point `<entry>` (defaults to the package name). */
export function makeApp(root: string, name: string, body: string, opts: { pkg?: string; entry?: string; version?: string; marker?: string } = {}): string {
  const pkg = opts.pkg ?? name;
  const dir = join(root, name);
  mkdirSync(join(dir, pkg), { recursive: true });
  writeFileSync(join(dir, 'pyproject.toml'), `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "${name}"
version = "${opts.version ?? '0.1.0'}"
requires-python = ">=3.10"

[project.entry-points."reachy_mini_apps"]
${opts.entry ?? pkg} = "${pkg}.main:App"

[tool.setuptools]
packages = ["${pkg}"]
`);
  writeFileSync(join(dir, pkg, '__init__.py'), `MARKER = ${JSON.stringify(opts.marker ?? 'v1')}\n`);
  writeFileSync(join(dir, pkg, 'main.py'), `${PRELUDE}\nclass App:\n    pass\n${body}\nif __name__ == "__main__":\n    main()\n`);
  return dir;
}

export interface Pair {
  daemon: RunningDaemon;
  client: DaemonClient;
  appsDir: string;
}

export async function daemonPair(appsDir: string, opts: { stopTimeoutMs?: number; startupApp?: string | null; hubEndpoint?: string; log?: (l: string) => void } = {}): Promise<Pair> {
  const daemon = await startDaemon({ appsDir, sim: true, port: 0, ...opts });
  const client = createDaemonClient({ baseUrl: daemon.url, timeoutMs: 10_000, jobTimeoutMs: 120_000 });
  return { daemon, client, appsDir };
}

export async function closePair(p: Pair): Promise<void> {
  await p.client.close();
  await p.daemon.close();
}

/** Poll until fn() is truthy. */
export async function until<T>(fn: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A zombie (dead, not yet reaped by init in a container) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Many apps in one distribution: one pip run instead of one per app (pip costs ~1 s of CPU). */
export function makeBundle(root: string, name: string, apps: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  const pkgs = Object.keys(apps);
  writeFileSync(join(dir, 'pyproject.toml'), `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "${name}"
version = "0.1.0"
dependencies = ["robotctl_missing_dep>=1", "pip"]

[project.entry-points."reachy_mini_apps"]
${pkgs.map((p) => `${p} = "${p}.main:App"`).join('\n')}

[tool.setuptools]
packages = [${pkgs.map((p) => `"${p}"`).join(', ')}]
`);
  for (const [pkg, body] of Object.entries(apps)) {
    mkdirSync(join(dir, pkg), { recursive: true });
    writeFileSync(join(dir, pkg, '__init__.py'), '');
    writeFileSync(join(dir, pkg, 'main.py'), `${PRELUDE}\nclass App:\n    pass\n${body}\nif __name__ == "__main__":\n    main()\n`);
  }
  return dir;
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
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
