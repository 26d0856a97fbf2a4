import t from 'tap';
import { loadConfigText } from '../../schema/load.js';

// startup_app (issue 30.5): a fleet default, a per-robot override, null to
// clear, absent to leave the robot's own setting alone; a name that is not
// one of the robot's apps is named with its line and field.

const load = (text: string) => loadConfigText(`version: 1\napps:\n  hello_app: { source: https://huggingface.co/spaces/a/hello_app }\n  wave_app: { source: https://huggingface.co/spaces/a/wave_app }\n${text}`, 'robot.yaml', '/tmp', {});

t.test('fleet default, per-robot override, null, absent', async (t) => {
  const r = load('startup_app: hello_app\nrobots:\n  desk: { url: http://127.0.0.1:8000 }\n  lab: { url: http://127.0.0.1:8001, startup_app: wave_app }\n  bare: { url: http://127.0.0.1:8002, startup_app: null }\n');
  t.ok(r.ok, JSON.stringify(r.diagnostics));
  if (!r.ok) return;
  t.equal(r.config.startupApp, 'hello_app');
  t.same([r.config.robots.desk?.startupApp, r.config.robots.lab?.startupApp, r.config.robots.bare?.startupApp], ['hello_app', 'wave_app', null]);
  const absent = load('robots:\n  desk: { url: http://127.0.0.1:8000 }\n');
  t.ok(absent.ok);
  if (absent.ok) t.equal(absent.config.robots.desk?.startupApp, undefined, 'not managed: the robot keeps its own');
});

t.test('an undeclared app, or one that is not among the robot\'s apps, is an error at its line', async (t) => {
  const cases: [string, RegExp, number][] = [
    ['startup_app: helo_app\nrobots:\n  desk: { url: http://127.0.0.1:8000 }\n', /^5: startup_app: .*'helo_app'.*did you mean 'hello_app'/, 5],
    ['robots:\n  desk: { url: http://127.0.0.1:8000, apps: [hello_app], startup_app: wave_app }\n', /^6: robots\.desk\.startup_app: 'wave_app' is not among this robot's apps \(hello_app\)/, 6],
    ['startup_app: wave_app\nrobots:\n  desk: { url: http://127.0.0.1:8000, apps: [hello_app] }\n', /robots\.desk: the fleet's startup_app 'wave_app' is not among this robot's apps/, 7],
    ['startup_app: 3\nrobots:\n  desk: { url: http://127.0.0.1:8000 }\n', /^5: startup_app: /, 5],
  ];
  for (const [text, message, line] of cases) {
    const r = load(text);
    t.notOk(r.ok, text);
    t.match(r.diagnostics.map((d) => `${d.line}: ${d.path}: ${d.message}`).join('\n'), message, text);
    t.equal(r.diagnostics[0]?.line, line, text);
  }
});
