import t from 'tap';
import { existsSync, readdirSync, readFileSync, statSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runInProcess } from '../helpers/cli.js';
import { examplesDir } from './helpers.js';

function tree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? tree(full) : [full];
  });
}

function files(base: string): string[] {
  return tree(base).map((f) => relative(base, f)).sort();
}

const SPEC_LAYOUT = [
  '.gitignore', 'README.md', 'hello_app/__init__.py', 'hello_app/main.py',
  'hello_app/static/index.html', 'hello_app/static/main.js', 'hello_app/static/style.css',
  'index.html', 'pyproject.toml', 'style.css',
];

t.test('default template: exactly the layout of spec §5', async (t) => {
  const dest = t.testdir();
  const r = await runInProcess(['app', 'create', 'hello_app', dest]);
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout, `[OK] Created app 'hello_app' in ${join(dest, 'hello_app')}/\n`);
  const base = join(dest, 'hello_app');
  t.same(files(base), SPEC_LAYOUT);
  const pyproject = readFileSync(join(base, 'pyproject.toml'), 'utf8');
  t.match(pyproject, 'build-backend = "setuptools.build_meta"');
  t.match(pyproject, 'name = "hello_app"');
  t.match(pyproject, 'version = "0.1.0"');
  t.match(pyproject, 'requires-python = ">=3.10"');
  t.match(pyproject, '[project.entry-points."reachy_mini_apps"]\nhello_app = "hello_app.main:HelloApp"');
  t.match(pyproject, 'hello_app = ["**/*"]');
  const readme = readFileSync(join(base, 'README.md'), 'utf8');
  t.match(readme, /^---\ntitle: Hello App\nemoji: .+\ncolorFrom: red\ncolorTo: blue\nsdk: static\npinned: false\nshort_description: .+\ntags:\n - reachy_mini\n - reachy_mini_python_app\n---\n/);
  const main = readFileSync(join(base, 'hello_app', 'main.py'), 'utf8');
  t.match(main, 'from reachy_mini import ReachyMini, ReachyMiniApp\nfrom reachy_mini.utils import create_head_pose');
  t.match(main, 'class HelloApp(ReachyMiniApp):');
  t.match(main, 'def run(self, reachy_mini: ReachyMini, stop_event: threading.Event):');
  t.match(pyproject, 'dependencies = [\n    "reachy-mini"\n]');
  t.match(pyproject, 'keywords = ["reachy-mini-app"]');
  t.match(main, 'custom_app_url: str | None = "http://0.0.0.0:8042"');
  t.match(main, '@self.settings_app.post("/antennas")');
  t.match(main, 'time.sleep(0.02)');
  t.match(main, /if __name__ == "__main__":\n    app = HelloApp\(\)\n    try:\n        app.wrapped_run\(\)\n    except KeyboardInterrupt:\n        app.stop\(\)\n$/);
  t.notMatch(readFileSync(join(base, 'hello_app', 'static', 'index.html'), 'utf8'), '{{');
});

t.test('conversation template: the same layout plus audio and motion modules', async (t) => {
  const dest = t.testdir();
  const r = await runInProcess(['app', 'create', 'chat_bot', dest, '--template', 'conversation']);
  t.equal(r.code, 0, r.stderr);
  const got = files(join(dest, 'chat_bot'));
  t.same(got, [...SPEC_LAYOUT.map((f) => f.replace('hello_app/', 'chat_bot/')), 'chat_bot/audio.py', 'chat_bot/motion.py'].sort());
  const main = readFileSync(join(dest, 'chat_bot', 'chat_bot', 'main.py'), 'utf8');
  t.match(main, 'class ChatBot(ReachyMiniApp):');
  t.match(readFileSync(join(dest, 'chat_bot', 'pyproject.toml'), 'utf8'), '"reachy-mini"');
  t.match(readFileSync(join(dest, 'chat_bot', 'chat_bot', 'audio.py'), 'utf8'), 'HARDWARE');
  for (const f of tree(join(dest, 'chat_bot'))) t.notMatch(readFileSync(f, 'utf8'), /\{\{\w+\}\}/, `${f} fully rendered`);
});

t.test('name rules: the exact messages, in order, exit 1', async (t) => {
  const dest = t.testdir();
  const cases: [string, string][] = [
    ['', 'App name cannot be empty.'],
    ['   ', 'App name cannot be empty.'],
    ['my app', 'App name cannot contain spaces.'],
    ['my-app', "App name cannot contain dashes ('-'). Please use underscores ('_') instead."],
    ['my/app', "App name cannot contain slashes or backslashes ('/' or '\\\\')."],
    ['my\\app', "App name cannot contain slashes or backslashes ('/' or '\\\\')."],
    ['my*app', "App name cannot contain wildcard characters ('*', '?', or '.')."],
    ['my.app', "App name cannot contain wildcard characters ('*', '?', or '.')."],
    ['my?app', "App name cannot contain wildcard characters ('*', '?', or '.')."],
    ['9lives', 'App name must be a valid Python identifier: letters, digits and underscores, not starting with a digit.'],
  ];
  for (const [name, message] of cases) {
    const r = await runInProcess(['app', 'create', name, dest]);
    t.equal(r.code, 1, `exit 1 for ${JSON.stringify(name)}`);
    t.equal(r.stderr, `${message}\n`, `message for ${JSON.stringify(name)}`);
  }
  t.same(readdirSync(dest), [], 'nothing written');
});

t.test('existing folder, destination that is a file, unknown template', async (t) => {
  const dest = t.testdir();
  mkdirSync(join(dest, 'taken'));
  let r = await runInProcess(['app', 'create', 'taken', dest]);
  t.equal(r.code, 1);
  t.equal(r.stderr, `[ERROR] Folder ${join(dest, 'taken')} already exists.\n`);
  t.same(readdirSync(join(dest, 'taken')), [], 'left untouched');
  writeFileSync(join(dest, 'a-file'), '');
  r = await runInProcess(['app', 'create', 'ok_app', join(dest, 'a-file')]);
  t.equal(r.code, 1);
  t.equal(r.stderr, `[ERROR] The path ${join(dest, 'a-file')} is not a folder.\n`);
  r = await runInProcess(['app', 'create', 'ok_app', dest, '--template', 'fancy']);
  t.equal(r.code, 1);
  t.match(r.stderr, "Unknown template 'fancy': use one of default, conversation.");
  r = await runInProcess(['app', 'create', 'ok_app'], { cwd: dest });
  t.equal(r.code, 64, 'missing DEST is a usage error');
  t.match(r.stderr, 'missing required argument');
});

t.test('a missing DEST is created, as the README writes it from a fresh clone: app create my_app ./apps', async (t) => {
  const clone = t.testdir();
  const r = await runInProcess(['app', 'create', 'my_app', './apps'], { cwd: clone });
  t.equal(r.code, 0, r.stderr);
  t.equal(r.stdout, `[OK] Created app 'my_app' in ${join(clone, 'apps', 'my_app')}/\n`);
  t.ok(statSync(join(clone, 'apps', 'my_app', 'my_app', 'main.py')).isFile());
  const deep = await runInProcess(['app', 'create', 'deep_app', 'a/b/c'], { cwd: clone });
  t.equal(deep.code, 0, deep.stderr);
  t.ok(statSync(join(clone, 'a', 'b', 'c', 'deep_app', 'pyproject.toml')).isFile(), 'every missing level is made');
  const bad = await runInProcess(['app', 'create', 'bad-name', './never'], { cwd: clone });
  t.equal(bad.code, 1);
  t.notOk(existsSync(join(clone, 'never')), 'a refused name creates no folder');
});

t.test('a relative DEST is resolved from the working directory', async (t) => {
  const dest = t.testdir();
  const r = await runInProcess(['app', 'create', 'rel_app', '.'], { cwd: dest });
  t.equal(r.code, 0, r.stderr);
  t.ok(statSync(join(dest, 'rel_app', 'rel_app', 'main.py')).isFile());
});

t.test('examples/apps/hello_app is exactly what the default template makes', async (t) => {
  const dest = t.testdir();
  await runInProcess(['app', 'create', 'hello_app', dest]);
  const made = join(dest, 'hello_app');
  const shipped = join(examplesDir, 'hello_app');
  t.same(files(shipped).filter((f) => !f.includes('__pycache__')), files(made));
  for (const f of files(made)) t.equal(readFileSync(join(shipped, f), 'utf8'), readFileSync(join(made, f), 'utf8'), f);
});
