import t from 'tap';
import { join } from 'node:path';
import { loadConfig } from '../../schema/load.js';
import { formatDiagnostic } from '../../schema/types.js';
import { repoRoot } from '../helpers/cli.js';

const env = { WEBHOOK_SECRET: 'example-secret' };
const example = (name: string): string => join(repoRoot, 'examples', name);

function load(name: string, extra: NodeJS.ProcessEnv = {}) {
  const r = loadConfig(example(name), { ...env, ...extra });
  if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  return r.config;
}

t.test('examples/robot.yaml is valid: one robot, every app, fleet active', async (t) => {
  const c = load('robot.yaml');
  t.equal(c.file, example('robot.yaml'));
  t.equal(c.hub.endpoint, 'https://huggingface.co');
  t.strictSame(Object.keys(c.robots), ['desk']);
  t.strictSame(c.robots.desk, { name: 'desk', url: 'http://127.0.0.1:8000', apps: ['hello_app', 'wave_app'], active: 'hello_app' });
  t.strictSame(c.webhooks['redeploy-apps'], {
    name: 'redeploy-apps',
    url: 'http://127.0.0.1:7860/webhooks/redeploy',
    jobId: null,
    watched: [{ type: 'space', name: 'demo/hello_app' }, { type: 'space', name: 'demo/wave_app' }],
    domains: ['repo'],
    secret: null,
    enabled: true,
  });
  t.strictSame(c.receiver, { port: 7860, secrets: [], endpoints: [{ name: 'redeploy', action: 'reconcile', app: null }] });
  t.strictSame(c.rollout, { parallelism: 10, canary: null, maxFailures: { kind: 'count', value: 0 }, healthyForMs: 10_000, onFailure: 'rollback' });
});

t.test('examples/fleet.yaml is valid and its overrides resolve per robot', async (t) => {
  const c = load('fleet.yaml');
  t.strictSame(Object.keys(c.robots), ['desk', 'lab-1', 'lab-2'], 'file order kept');
  const all = ['hello_app', 'wave_app', 'oneshot_app'];
  t.strictSame(c.robots.desk, { name: 'desk', url: 'http://127.0.0.1:8001', apps: all, active: 'hello_app' });
  t.strictSame(c.robots['lab-1'], { name: 'lab-1', url: 'http://127.0.0.1:8002', apps: all, active: 'wave_app' });
  t.strictSame(c.robots['lab-2'], { name: 'lab-2', url: 'http://127.0.0.1:8003', apps: ['hello_app', 'oneshot_app'], active: 'hello_app' });
  t.strictSame(c.apps.oneshot_app, { name: 'oneshot_app', source: null, spaceId: null, path: example('apps/oneshot_app') });
  t.equal(c.apps.wave_app?.spaceId, 'demo/wave_app');
  t.strictSame(c.rollout, { parallelism: 2, canary: 1, maxFailures: { kind: 'count', value: 1 }, healthyForMs: 2000, onFailure: 'rollback' });
  t.equal(c.active, 'hello_app');
});

t.test('HF_ENDPOINT overrides the file, without a trailing slash', async (t) => {
  t.equal(load('robot.yaml', { HF_ENDPOINT: 'http://127.0.0.1:9999/' }).hub.endpoint, 'http://127.0.0.1:9999');
});

t.test('examples/robot.yaml needs no environment (issue 2: a fresh clone validates it)', async (t) => {
  t.equal(loadConfig(example('robot.yaml'), {}).ok, true);
});

t.test('examples/fleet.yaml needs WEBHOOK_SECRET', async (t) => {
  const r = loadConfig(example('fleet.yaml'), {});
  t.equal(r.ok, false);
  t.ok(r.diagnostics.length >= 1);
  for (const d of r.diagnostics) t.match(d.message, /environment variable WEBHOOK_SECRET is not set/);
});
