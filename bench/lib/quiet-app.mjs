// A Reachy Mini app that does nothing until it is stopped (fleet benchmarks
// install it: what they measure is the fleet, not the app).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes the app `name` into <dir>/<name> and returns that folder. */
export function quietApp(dir, name) {
  const root = join(dir, name);
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, 'pyproject.toml'), `[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "${name}"\nversion = "0.1.0"\n\n[project.entry-points."reachy_mini_apps"]\n${name} = "${name}.main:App"\n\n[tool.setuptools]\npackages = ["${name}"]\n`);
  writeFileSync(join(root, name, '__init__.py'), '');
  writeFileSync(join(root, name, 'main.py'), 'import time\nclass App:\n    pass\ndef main():\n    try:\n        while True:\n            time.sleep(0.1)\n    except KeyboardInterrupt:\n        pass\nif __name__ == "__main__":\n    main()\n');
  return root;
}
