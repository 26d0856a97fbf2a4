import t from 'tap';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli.js';
import { writeTemplate } from '../../cli/app/template.js';

// Each case breaks one rule of a fresh default-template app; the check must
// stop at that rule with its exact message and exit 1 (before any venv work).
type Break = (app: string) => void;

function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`edit did not apply to ${file}`);
  writeFileSync(file, next);
}

const pyproject = (app: string): string => join(app, 'pyproject.toml');
const readme = (app: string): string => join(app, 'README.md');
const README_BODY = '\n# Demo\n';

const cases: [string, Break, string][] = [
  ['no pyproject.toml', (a) => rmSync(pyproject(a)), '[ERROR] pyproject.toml is missing'],
  ['invalid TOML', (a) => writeFileSync(pyproject(a), '[project\nname = 1'), '[ERROR] pyproject.toml is not valid TOML: '],
  ['no project name', (a) => edit(pyproject(a), 'name = "demo_app"\n', ''), '[ERROR] Project name is missing in pyproject.toml'],
  ['no index.html', (a) => { rmSync(join(a, 'index.html')); rmSync(join(a, 'style.css')); }, '[ERROR] index.html is missing'],
  ['no style.css', (a) => rmSync(join(a, 'style.css')), '[ERROR] style.css is missing'],
  ['no package folder', (a) => renameSync(join(a, 'demo_app'), join(a, 'other')), "[ERROR] Package folder 'demo_app' not found"],
  ['no __init__.py', (a) => rmSync(join(a, 'demo_app', '__init__.py')), "[ERROR] Package folder 'demo_app' not found"],
  ['no entry-points section', (a) => edit(pyproject(a), /\[project\.entry-points\."reachy_mini_apps"\]\ndemo_app = .*\n/, ''),
    '[ERROR] pyproject.toml is missing the entry-points section'],
  ['another entry-point group', (a) => edit(pyproject(a), '"reachy_mini_apps"]', '"console_scripts"]'),
    '[ERROR] pyproject.toml is missing the reachy_mini_apps entry-points section'],
  ['wrong entry point', (a) => edit(pyproject(a), 'demo_app.main:DemoApp', 'demo_app.main:Demo'),
    '[ERROR] pyproject.toml is missing the entrypoint for the app: demo_app = "demo_app.main:DemoApp"'],
  ['entry point under another name', (a) => edit(pyproject(a), 'demo_app = "demo_app.main:DemoApp"', 'demo = "demo_app.main:DemoApp"'),
    '[ERROR] pyproject.toml is missing the entrypoint for the app: demo_app = "demo_app.main:DemoApp"'],
  ['no main.py', (a) => rmSync(join(a, 'demo_app', 'main.py')), '[ERROR] main.py is missing'],
  ['class with another base', (a) => edit(join(a, 'demo_app', 'main.py'), 'class DemoApp(ReachyMiniApp)', 'class DemoApp(object)'),
    '[ERROR] main.py is missing the class DemoApp that inherits from ReachyMiniApp'],
  ['class with another name', (a) => edit(join(a, 'demo_app', 'main.py'), 'class DemoApp(ReachyMiniApp)', 'class Demo(ReachyMiniApp)'),
    '[ERROR] main.py is missing the class DemoApp that inherits from ReachyMiniApp'],
  ['class with a space before the base (the real rule is a plain substring)', (a) => edit(join(a, 'demo_app', 'main.py'), 'class DemoApp(ReachyMiniApp)', 'class DemoApp( ReachyMiniApp )'),
    '[ERROR] main.py is missing the class DemoApp that inherits from ReachyMiniApp'],
  ['the old robotctl_sdk base class', (a) => edit(join(a, 'demo_app', 'main.py'), 'class DemoApp(ReachyMiniApp)', 'class DemoApp(RobotApp)'),
    '[ERROR] main.py is missing the class DemoApp that inherits from ReachyMiniApp'],
  ['no README.md', (a) => rmSync(readme(a)), '[ERROR] README.md is missing'],
  ['README without metadata', (a) => writeFileSync(readme(a), README_BODY), '[ERROR] README.md is missing metadata section.'],
  ['README with broken YAML', (a) => writeFileSync(readme(a), `---\ntitle: [x\n---\n${README_BODY}`), '[ERROR] Error parsing YAML metadata: '],
  ['README without title', (a) => writeFileSync(readme(a), `---\ntags: [reachy_mini, reachy_mini_python_app]\n---\n${README_BODY}`),
    '[ERROR] README.md is missing the title key in metadata.'],
  ['README with empty title', (a) => writeFileSync(readme(a), `---\ntitle: ""\ntags: [reachy_mini]\n---\n${README_BODY}`),
    '[ERROR] README.md title cannot be empty.'],
  ['README without tags', (a) => writeFileSync(readme(a), `---\ntitle: Demo\n---\n${README_BODY}`), '[ERROR] README.md is missing the tags key in metadata.'],
  ['README without reachy_mini tag', (a) => edit(readme(a), ' - reachy_mini\n', ''), '[ERROR] README.md must contain the "reachy_mini" tag'],
  ['README without app tag', (a) => edit(readme(a), ' - reachy_mini_python_app\n', ''),
    '[ERROR] README.md must contain either the "reachy_mini_python_app" or "reachy_mini_js_app" tag'],
];

function freshApp(dir: string): string {
  const app = join(dir, 'demo_app');
  writeTemplate('default', 'demo_app', app);
  return app;
}

for (const [name, breakIt, message] of cases) {
  t.test(name, async (t) => {
    const app = freshApp(t.testdir());
    breakIt(app);
    const r = await runInProcess(['app', 'check', app]);
    t.equal(r.code, 1);
    t.ok(r.stderr.startsWith(message), `stderr starts with ${message}\n got: ${r.stderr}`);
    t.notMatch(r.stdout, 'passed all checks');
    t.notMatch(r.stdout, 'temporary virtual environment', 'stopped before the venv step');
  });
}

t.test('a missing path', async (t) => {
  const missing = join(t.testdir(), 'nope');
  const r = await runInProcess(['app', 'check', missing]);
  t.equal(r.code, 1);
  t.equal(r.stderr, `App path ${missing} does not exist.\n`);
});

t.test('the rules pass in order before the failing one', async (t) => {
  const app = freshApp(t.testdir());
  rmSync(readme(app));
  const r = await runInProcess(['app', 'check', app]);
  t.equal(r.code, 1);
  const oks = r.stdout.split('\n').filter((l) => l.startsWith('[OK]'));
  t.same(oks, [
    '[OK] index.html and style.css exist in the root of the app.',
    "[OK] Package 'demo_app' found at demo_app/",
    '[OK] pyproject.toml contains the correct entrypoint for the app.',
    '[OK] demo_app/main.py exists.',
    '[OK] main.py contains the class DemoApp that inherits from ReachyMiniApp.',
  ]);
  t.match(r.stdout, 'Found entrypoint: demo_app = "demo_app.main:DemoApp"\n[OK] pyproject.toml contains the correct entrypoint', 'entry points listed like the real assistant');
  t.equal(r.stderr, '[ERROR] README.md is missing\n');
});

t.test('src layout is accepted', async (t) => {
  const app = freshApp(t.testdir());
  mkdirSync(join(app, 'src'));
  renameSync(join(app, 'demo_app'), join(app, 'src', 'demo_app'));
  rmSync(readme(app)); // stop right after the rules under test
  const r = await runInProcess(['app', 'check', app]);
  t.match(r.stdout, "[OK] Package 'demo_app' found at src/demo_app/");
  t.match(r.stdout, '[OK] main.py contains the class DemoApp that inherits from ReachyMiniApp.');
  t.equal(r.stderr, '[ERROR] README.md is missing\n');
});

t.test('a package name taken from the entry point (project name != package)', async (t) => {
  const app = freshApp(t.testdir());
  edit(pyproject(app), 'name = "demo_app"', 'name = "demo-app"');
  edit(pyproject(app), 'demo_app = "demo_app.main:DemoApp"', 'demo-app = "demo_app.main:DemoApp"');
  rmSync(readme(app));
  const r = await runInProcess(['app', 'check', app]);
  t.match(r.stdout, 'Expected package name: demo_app');
  t.match(r.stdout, 'Expected entrypoint name: demo-app');
  t.match(r.stdout, '[OK] pyproject.toml contains the correct entrypoint for the app.');
});
