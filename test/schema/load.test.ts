import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, loadConfigText } from '../../schema/load.js';
import { redactedConfig } from '../../schema/redact.js';
import { closest, editDistance } from '../../schema/did-you-mean.js';
import { formatDiagnostic, type Config } from '../../schema/types.js';

const load = (text: string, env: NodeJS.ProcessEnv = {}) => loadConfigText(text, 'robot.yaml', '/srv/robots', env);

function config(text: string, env: NodeJS.ProcessEnv = {}): Config {
  const r = load(text, env);
  if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  return r.config;
}

t.test('a file with several mistakes reports all of them, sorted by position', async (t) => {
  const text = [
    'version: 1',                                      // 1
    'webhooks:',                                       // 2
    '  redeploy:',                                     // 3
    '    url: http://127.0.0.1:7860/webhooks/redeploy', // 4
    '    job_id: abc',                                 // 5
    '    watched: [spaces:demo/hello_app]',            // 6
    '    domains: [discussions]',                      // 7
    '    secret: ${NOPE}',                             // 8
    'apps:',                                           // 9
    '  hello_app: { source: https://huggingface.co/spaces/demo/hello_app }', // 10
    'active: helo_app',                                // 11
    'robots:',                                         // 12
    '  desk: { url: "desk.local:8000", apps: [dance_app] }', // 13
    'rollout: { max_failures: "ten%" }',               // 14
    'recevier: {}',                                    // 15
  ].join('\n');
  const r = load(text);
  t.strictSame(r.diagnostics.map(formatDiagnostic), [
    'robot.yaml:5:5: webhooks.redeploy: set url or job_id, not both',
    "robot.yaml:6:15: webhooks.redeploy.watched[0]: unknown watched type 'spaces', did you mean 'space'?",
    "robot.yaml:7:15: webhooks.redeploy.domains[0]: must be one of repo, discussion, not 'discussions', did you mean 'discussion'?",
    'robot.yaml:8:13: webhooks.redeploy.secret: environment variable NOPE is not set',
    "robot.yaml:11:9: active: 'helo_app' is not a declared app, did you mean 'hello_app'?",
    'robot.yaml:13:16: robots.desk.url: must be an http(s) URL like http://reachy-mini.local:8000',
    "robot.yaml:13:42: robots.desk.apps[0]: 'dance_app' is not a declared app; declared apps: hello_app",
    'robot.yaml:14:26: rollout.max_failures: must be a count (e.g. 2) or a percentage (e.g. 20%)',
    "robot.yaml:15:1: recevier: unknown key 'recevier', did you mean 'receiver'?",
  ]);
});

t.test('the robot at fault is named when the fleet active app is outside its list', async (t) => {
  const r = load('version: 1\napps: { a: { path: ./a }, b: { path: ./b } }\nactive: a\nrobots:\n  r1: { url: http://h:1, apps: [b] }\n');
  t.strictSame(r.diagnostics.map(formatDiagnostic), [
    "robot.yaml:5:3: robots.r1: the fleet's active app 'a' is not among this robot's apps; add it to apps or set active for this robot",
  ]);
});

t.test('an unreadable or missing file is one diagnostic at 1:1', async (t) => {
  const dir = t.testdir({ 'folder.yaml': {} });
  const missing = loadConfig('robot.yaml', {}, { cwd: dir });
  t.strictSame(missing.diagnostics.map(formatDiagnostic), ['robot.yaml:1:1: cannot read file: no such file']);
  const folder = loadConfig('folder.yaml', {}, { cwd: dir });
  t.strictSame(folder.diagnostics.map(formatDiagnostic), ['folder.yaml:1:1: cannot read file: it is a folder, not a file']);
});

t.test('loadConfig keeps the label as typed and resolves paths against the file folder', async (t) => {
  const dir = t.testdir({ sub: { 'robot.yaml': 'version: 1\napps:\n  dev: { path: ./apps/dev }\n  abs: { path: /opt/app }\n' } });
  const r = loadConfig(join('sub', 'robot.yaml'), {}, { cwd: dir });
  if (!r.ok) throw new Error('expected valid');
  t.equal(r.config.file, join(dir, 'sub', 'robot.yaml'));
  t.equal(r.config.apps.dev?.path, join(dir, 'sub', 'apps', 'dev'));
  t.equal(r.config.apps.abs?.path, '/opt/app');
  writeFileSync(join(dir, 'sub', 'robot.yaml'), 'version: 1\nfoo: 1\n');
  t.strictSame(loadConfig(join('sub', 'robot.yaml'), {}, { cwd: dir }).diagnostics.map(formatDiagnostic), [
    `${join('sub', 'robot.yaml')}:2:1: foo: unknown key 'foo'; expected one of: version, hub, webhooks, apps, active, startup_app, robots, daemon, rollout, notify, receiver, state`,
  ]);
});

t.test('defaults for a minimal file', async (t) => {
  const c = config('version: 1\n');
  t.strictSame(
    { ...c, file: undefined },
    {
      version: 1, file: undefined, hub: { endpoint: 'https://huggingface.co' }, webhooks: {}, apps: {}, active: null, robots: {},
      daemon: { version: null, updateTimeoutMs: 600_000 },
      rollout: { parallelism: 10, canary: null, maxFailures: { kind: 'count', value: 0 }, healthyForMs: 10_000, onFailure: 'rollback' }, notify: null, receiver: null, stateBlock: null,
    },
  );
  t.equal(c.file, '/srv/robots/robot.yaml');
  t.same(config('version: 1\nwebhooks:\napps:\nrobots:\n').webhooks, {}, 'empty sections read as empty maps');
});

t.test('normalisation: domains, enabled, endpoint, URLs, overrides, rollout, receiver', async (t) => {
  const c = config([
    'version: 1',
    'hub: { endpoint: "https://hub.example.org/" }',
    'webhooks:',
    '  w: { job_id: j1, watched: [user:a], domains: [repo, discussion, repo], enabled: false }',
    '  v: { url: https://x.org/h, watched: [user:b] }',
    'apps: { a: { source: "https://huggingface.co/spaces/o/a/" }, b: { path: b } }',
    'active: a',
    'robots:',
    '  r1: { url: "http://r1.local:8000/" }',
    '  r2: { url: http://r2.local:8000, active: null }',
    '  r3: { url: http://r3.local:8000, apps: [b], active: b }',
    'rollout: { parallelism: 3, canary: 1, max_failures: 20%, healthy_for: 2.5s, on_failure: stop }',
    'receiver: { secret: [old, new], endpoints: { z: { action: redeploy, app: a }, y: { action: log } } }',
  ].join('\n'));
  t.equal(c.hub.endpoint, 'https://hub.example.org');
  t.strictSame(c.webhooks.w, { name: 'w', url: null, jobId: 'j1', watched: [{ type: 'user', name: 'a' }], domains: ['discussion', 'repo'], secret: null, enabled: false });
  t.equal(c.webhooks.v?.enabled, true);
  t.strictSame(c.webhooks.v?.domains, []);
  t.equal(c.apps.a?.spaceId, 'o/a');
  t.equal(c.apps.b?.path, '/srv/robots/b');
  t.strictSame(c.robots.r1, { name: 'r1', url: 'http://r1.local:8000', apps: ['a', 'b'], active: 'a' });
  t.strictSame(c.robots.r2, { name: 'r2', url: 'http://r2.local:8000', apps: ['a', 'b'], active: null });
  t.strictSame(c.robots.r3, { name: 'r3', url: 'http://r3.local:8000', apps: ['b'], active: 'b' });
  t.strictSame(c.rollout, { parallelism: 3, canary: 1, maxFailures: { kind: 'percent', value: 20 }, healthyForMs: 2500, onFailure: 'stop' });
  t.equal(config('version: 1\nrollout: { healthy_for: 3 }\n').rollout.healthyForMs, 3000, 'a bare number is seconds');
  t.equal(config('version: 1\nrollout: { min_ready: 250ms }\n').rollout.healthyForMs, 250, 'min_ready, the old name, still counts');
  t.strictSame(c.receiver, {
    port: 7860, secrets: ['old', 'new'],
    endpoints: [{ name: 'z', action: 'redeploy', app: 'a' }, { name: 'y', action: 'log', app: null }],
  });
});

t.test('redactedConfig hides every secret and keeps the rest', async (t) => {
  const c = config('version: 1\nwebhooks:\n  w: { url: https://x.org/h, watched: [user:a], secret: s3cr3t-w }\n'
    + 'receiver: { secret: [s3cr3t-1, s3cr3t-2], endpoints: { e: { action: log } } }\nrollout: { max_failures: 12.5% }\n');
  const view = redactedConfig(c);
  const text = JSON.stringify(view);
  t.notMatch(text, /s3cr3t/);
  t.match(view, {
    webhooks: { w: { url: 'https://x.org/h', job_id: null, secret: '(sensitive)', enabled: true } },
    receiver: { port: 7860, secrets: ['(sensitive)', '(sensitive)'], endpoints: { e: { action: 'log', app: null } } },
    rollout: { max_failures: '12.5%', healthy_for_ms: 10_000, on_failure: 'rollback' },
  });
  t.equal(c.webhooks.w?.secret, 's3cr3t-w', 'the Config itself keeps the clear value in memory');
});

t.test('did you mean: edit distance within 2, case-insensitive, swaps count once', async (t) => {
  t.equal(editDistance('kitten', 'sitting'), 3);
  t.equal(editDistance('', 'abc'), 3);
  t.equal(editDistance('ab', 'ba'), 1);
  t.equal(closest('recievr', ['receiver', 'robots']), 'receiver');
  t.equal(closest('URL', ['url', 'job_id']), 'url');
  t.equal(closest('colour', ['version', 'hub']), undefined);
  t.equal(closest('x', ['a', 'hub']), undefined, 'one letter is close to nothing');
});

t.test('YAML anchors and aliases resolve; positions still point into the file', async (t) => {
  const c = config('version: 1\napps:\n  a: &app { path: ./a }\nrobots:\n  r1: { url: http://h:1, apps: [a] }\n  r2: { url: http://h:2, apps: [a] }\n');
  t.strictSame(c.robots.r2?.apps, ['a']);
  const r = load('version: 1\nx: &u http://h\nrobots:\n  r1: { url: *u }\n');
  t.strictSame(r.diagnostics.map(formatDiagnostic), ["robot.yaml:2:1: x: unknown key 'x'; expected one of: version, hub, webhooks, apps, active, startup_app, robots, daemon, rollout, notify, receiver, state"]);
});

t.test('min_ready, healthy_for\'s old name, loads with a warning that names its line', async (t) => {
  const block = loadConfigText('version: 1\n# min_ready: in a comment is not it\nrollout:\n  parallelism: 2\n  min_ready: 2s\n', 'robot.yaml', '/tmp', {});
  t.ok(block.ok);
  if (!block.ok) return;
  t.equal(block.config.rollout.healthyForMs, 2000);
  t.same(block.warnings.map(formatDiagnostic), ['robot.yaml:5:3: rollout.min_ready: min_ready is the old name of healthy_for: rename it (it means the same; the old name will go)']);
  const flow = loadConfigText('version: 1\nrollout: { canary: 1, min_ready: 500ms }\n', 'robot.yaml', '/tmp', {});
  t.same(flow.ok ? flow.warnings.map((w) => [w.line, w.column]) : null, [[2, 23]]);
  const current = loadConfigText('version: 1\nrollout: { healthy_for: 0s }\n', 'robot.yaml', '/tmp', {});
  t.same(current.ok ? [current.warnings, current.config.rollout.healthyForMs] : null, [[], 0], 'healthy_for: 0s, no warning');
});
