import t from 'tap';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { bin, repoRoot } from '../helpers/cli.js';
import { startHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';

// examples/ci runs as written: the workflow's steps (robotctl on PATH in
// place of `npm install`) from fresh clones in turn, against the embedded
// hub, with only HF_TOKEN and WEBHOOK_SECRET as secrets. The state lives in
// the hub dataset, so the second clone updates the webhook in place: no
// duplicate, no orphan, and a rotated secret is seen from a fresh runner.

const USER = { name: 'your-name', token: 'hf_ci_example_token_0123456789' };
const ciDir = join(repoRoot, 'examples', 'ci');

interface Step { name?: string; if?: string; run?: string; env?: Record<string, string> }
type Event = 'pull_request' | 'push-main';

const steps = (): Step[] => {
  const wf = parseYaml(readFileSync(join(ciDir, 'github-actions.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
  return Object.values(wf.jobs)[0]?.steps ?? [];
};

function applies(step: Step, event: Event): boolean {
  if (!step.if) return true;
  const facts: Record<string, boolean> = {
    "github.event_name == 'pull_request'": event === 'pull_request',
    "github.event_name == 'push' && github.ref == 'refs/heads/main'": event === 'push-main',
  };
  if (!(step.if in facts)) throw new Error(`the test does not know the condition ${step.if}`);
  return facts[step.if] as boolean;
}

function sh(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

t.test('the CI example from fresh clones: apply, change, apply again', async (t) => {
  const hub = await startHub({ users: [USER] });
  t.teardown(() => hub.close());
  const tmp = mkdtempSync(join(tmpdir(), 'robotctl-ci-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const shims = join(tmp, 'bin');
  rmSync(shims, { recursive: true, force: true });
  writeFileSync(join(tmp, 'robotctl'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  chmodSync(join(tmp, 'robotctl'), 0o755);
  const base = { PATH: `${tmp}:${process.env.PATH ?? ''}`, HOME: tmp, NO_COLOR: '1', HF_ENDPOINT: hub.url };
  let clones = 0;

  const job = async (event: Event, secrets: Record<string, string>, edit: (text: string) => string = (x) => x): Promise<string> => {
    const clone = join(tmp, `clone-${++clones}`);
    await sh(`mkdir -p "${clone}"`, tmp, base);
    writeFileSync(join(clone, 'robot.yaml'), edit(readFileSync(join(ciDir, 'robot.yaml'), 'utf8')));
    let log = '';
    for (const step of steps().filter((s) => s.run && s.name !== 'install robotctl' && applies(s, event))) {
      const env: Record<string, string> = { ...base };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = v.replace(/\$\{\{ secrets\.(\w+) \}\}/g, (_m, name: string) => secrets[name] ?? '');
      const r = await sh(step.run as string, clone, env);
      log += `$ ${step.name}\n${r.out}`;
      t.equal(r.code, 0, `${event} step ${step.name} passes`);
    }
    return log;
  };

  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  t.teardown(() => client.close());
  const first = await job('push-main', { HF_TOKEN: USER.token, WEBHOOK_SECRET: 'first-secret' });
  t.match(first, /unset variable/, 'validate ran without secrets');
  t.match(first, /\+ webhooks\.redeploy-apps will be created/);
  let hooks = await client.listWebhooks();
  t.equal(hooks.length, 1);
  const id = hooks[0]?.id;
  t.equal((await client.repoInfo('dataset', 'your-name/robotctl-state'))?.private, true, 'the state dataset is private');
  const stateText = (await client.downloadFile('dataset', 'your-name/robotctl-state', 'state.json')).toString();
  t.notOk(stateText.includes('first-secret'), 'no secret in the stored state');

  const changed = (text: string): string => text.replace('webhooks/redeploy', 'webhooks/redeploy-v2');
  const pr = await job('pull_request', { HF_TOKEN: USER.token, WEBHOOK_SECRET: 'rotated-secret' }, changed);
  t.match(pr, /webhooks\.redeploy-apps/, 'the pull request shows the change');
  t.equal((await client.listWebhooks())[0]?.url, 'https://example.org/webhooks/redeploy', 'a diff changes nothing');

  const second = await job('push-main', { HF_TOKEN: USER.token, WEBHOOK_SECRET: 'rotated-secret' }, changed);
  t.match(second, /~ webhooks\.redeploy-apps \(id \w+\) will be updated \(url, secret changed\)/);
  hooks = await client.listWebhooks();
  t.equal(hooks.length, 1, 'no duplicate, no orphan');
  t.same([hooks[0]?.id, hooks[0]?.url, hooks[0]?.secret], [id, 'https://example.org/webhooks/redeploy-v2', 'rotated-secret'], 'updated in place');

  const again = await job('pull_request', { HF_TOKEN: USER.token, WEBHOOK_SECRET: 'rotated-secret' }, changed);
  t.match(again, /No drift/, 'a third fresh clone sees nothing to do');
  const rotated = await job('pull_request', { HF_TOKEN: USER.token, WEBHOOK_SECRET: 'third-secret' }, changed);
  t.match(rotated, /webhooks\.redeploy-apps: update \(secret changed\)/, 'a rotated secret is drift, seen from a fresh runner');
});
