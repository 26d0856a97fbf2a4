// The apps the dashboard test installs: examples/apps/<name> when that
// example exists, else a minimal stand-in written to `dir` (a package with
// the reachy_mini_apps entry point whose __main__ block uses only urllib).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../helpers/cli.js';

const MOVING = `
import json, math, os, sys, time, urllib.request

URL = os.environ.get("ROBOT_DAEMON_URL", "http://127.0.0.1:8000")

class App:
    pass

def post(path, body):
    req = urllib.request.Request(URL + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    urllib.request.urlopen(req, timeout=2).read()

if __name__ == "__main__":
    t0 = time.time()
    try:
        while True:
            t = time.time() - t0
            yaw = math.radians(30) * math.sin(2 * math.pi * 0.2 * t)
            a = math.radians(25) * math.sin(2 * math.pi * 0.5 * t)
            post("/api/move/set_target", {"target_head_pose": {"x": 0, "y": 0, "z": 0, "roll": 0, "pitch": 0, "yaw": yaw},
                                          "target_antennas": [a, -a]})
            time.sleep(0.02)
    except KeyboardInterrupt:
        sys.exit(0)
`;

const CRASHING = `
import sys, time

class App:
    pass

if __name__ == "__main__":
    print("crash_app: starting", flush=True)
    time.sleep(0.3)
    raise RuntimeError("crash_app crashed on purpose")
`;

async function writeApp(dir: string, name: string, main: string): Promise<string> {
  const root = join(dir, name);
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, 'pyproject.toml'), `[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "${name}"
version = "0.1.0"
requires-python = ">=3.10"

[project.entry-points."reachy_mini_apps"]
${name} = "${name}.main:App"

[tool.setuptools]
packages = ["${name}"]
`);
  await writeFile(join(root, name, '__init__.py'), '');
  await writeFile(join(root, name, 'main.py'), main.trimStart());
  return root;
}

/** Folder of the example app `name` (hello_app or crash_app). */
export async function sampleApp(name: 'hello_app' | 'crash_app', dir: string): Promise<string> {
  const example = join(repoRoot, 'examples', 'apps', name);
  if (existsSync(join(example, 'pyproject.toml'))) return example;
  return writeApp(dir, name, name === 'hello_app' ? MOVING : CRASHING);
}
