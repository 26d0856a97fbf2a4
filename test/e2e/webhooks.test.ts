import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { acquireLock } from '../../state/lock.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { SECRET, USER, env, spawnCli, writeYaml } from './helpers.js';

// The hub half end to end, through the built CLI: kill -9 and Ctrl-C in the
// middle of an apply, two applies at once, a held lock, drift made with
// `robotctl webhooks update`, import. One embedded hub for the whole file;
// each scenario uses its own folder, state and URLs.

let hub: RunningHub;
const outputs: string[] = [];

t.before(async () => { hub = await startHub({ users: [USER] }); });
t.teardown(async () => { await hub.close(); });

function fleetOfHooks(tag: string, n: number): string {
  const hooks = Array.from({ length: n }, (_, i) =>
    `  hook-${i}:\n    url: https://example.org/${tag}/${i}\n    watched: [user:alice]\n    secret: \${WEBHOOK_SECRET}\n`).join('');
  return `version: 1\nwebhooks:\n${hooks}`;
}

async function cli(args: string[], dir: string, extra: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const r = await runCli(args, { env: env(hub.url, extra), cwd: dir });
  outputs.push(r.stdout, r.stderr);
  return r;
}

async function hooksFor(tag: string) {
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  try {
    return (await client.listWebhooks()).filter((h) => h.url?.includes(`/${tag}/`));
  } finally {
    await client.close();
  }
}

const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, '.robotctl', 'state.json'), 'utf8')) as { webhooks: Record<string, { id: string }> };

t.test('kill -9 in the middle of an apply, then a re-apply: converged, no duplicate', async (t) => {
  const dir = t.testdir();
  const n = 300;
  writeYaml(dir, 'robot.yaml', fleetOfHooks('kill', n));
  const child = spawnCli(['apply', '-f', 'robot.yaml', '--yes'], { env: env(hub.url), cwd: dir });
  await child.waitFor(/: created/, 20);
  child.proc.kill('SIGKILL');
  t.equal(await child.exited, 'SIGKILL');
  outputs.push(child.stdout(), child.stderr());
  const recorded = Object.keys(stateOf(dir).webhooks).length;
  t.ok(recorded >= 20 && recorded < n, `killed in the middle (${recorded} of ${n} recorded)`);
  // The killed apply left its lock; its pid is dead on this host, so the next
  // run breaks it by itself (no person, no wait) and says so in one line.
  const again = await cli(['apply', '-f', 'robot.yaml', '--yes', '--lock-timeout', '0s'], dir);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stderr, /^Broke the stale state lock of pid \d+ on host \S+ \(apply since \S+\): that process no longer runs\.$/m);
  const hooks = await hooksFor('kill');
  t.equal(hooks.length, n, 'exactly one webhook per name');
  t.equal(new Set(hooks.map((h) => h.url)).size, n);
  t.equal(Object.keys(stateOf(dir).webhooks).length, n);
  t.equal((await cli(['diff', '-f', 'robot.yaml'], dir)).code, 0);
});

t.test('Ctrl-C: in-flight actions finish and are recorded, the rest is listed, exit 130', async (t) => {
  const dir = t.testdir();
  const n = 300;
  writeYaml(dir, 'robot.yaml', fleetOfHooks('sigint', n));
  const child = spawnCli(['apply', '-f', 'robot.yaml', '--yes'], { env: env(hub.url), cwd: dir });
  await child.waitFor(/: created/, 10);
  child.proc.kill('SIGINT');
  t.equal(await child.exited, 130);
  outputs.push(child.stdout(), child.stderr());
  t.match(child.stderr(), /Interrupt received/);
  t.match(child.stdout(), /Interrupted: these actions were not done/);
  const created = (child.stdout().match(/: created/g) ?? []).length;
  t.equal(Object.keys(stateOf(dir).webhooks).length, created, 'every reported success is in the state');
  t.equal((await hooksFor('sigint')).length, created, 'nothing done beyond what was reported');
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--yes'], dir)).code, 0);
  t.equal((await hooksFor('sigint')).length, n);
});

t.test('two applies at once: one waits for the lock, no duplicates', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', fleetOfHooks('twice', 30));
  const [a, b] = await Promise.all([
    cli(['apply', '-f', 'robot.yaml', '--yes', '--lock-timeout', '60s'], dir),
    cli(['apply', '-f', 'robot.yaml', '--yes', '--lock-timeout', '60s'], dir),
  ]);
  t.equal(a.code, 0, a.stderr);
  t.equal(b.code, 0, b.stderr);
  t.equal((await hooksFor('twice')).length, 30);
  t.ok([a, b].some((r) => r.stdout.includes('No changes')), 'the second one found nothing left to do');
});

t.test('a held lock: apply fails naming the holder; state unlock --force breaks it', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', fleetOfHooks('locked', 1));
  const lock = await acquireLock(join(dir, '.robotctl', 'state.json'), { timeoutMs: 0, operation: 'apply' });
  const r = await cli(['apply', '-f', 'robot.yaml', '--yes', '--lock-timeout', '300ms'], dir);
  t.equal(r.code, 1);
  t.match(r.stderr, new RegExp(`locked by pid ${process.pid} on host`));
  const show = await cli(['state', 'show', '-f', 'robot.yaml'], dir);
  t.match(show.stdout, /Lock: state is locked by pid/);
  const unlock = await cli(['state', 'unlock', '--force', '-f', 'robot.yaml'], dir);
  t.match(unlock.stdout, /Lock removed/);
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--yes'], dir)).code, 0);
  await lock.release();
});

t.test('drift made with `robotctl webhooks update` is reported by diff (exit 2) and fixed by apply', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', fleetOfHooks('drift', 2));
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--yes'], dir)).code, 0);
  t.equal((await cli(['diff', '-f', 'robot.yaml'], dir)).code, 0);
  const id = stateOf(dir).webhooks['hook-1']?.id as string;
  const upd = await cli(['webhooks', 'update', id, '--url', 'https://evil.example.org/x', '--secret', 'another-secret-value'], dir);
  t.equal(upd.code, 0, upd.stderr);
  const diff = await cli(['diff', '-f', 'robot.yaml'], dir);
  t.equal(diff.code, 2);
  t.match(diff.stdout, /webhooks\.hook-1: update \(url, secret changed\)/);
  t.notMatch(diff.stdout, /hook-0/);
  const json = JSON.parse((await cli(['diff', '-f', 'robot.yaml', '--json'], dir)).stdout) as { format_version: string; drift: boolean };
  t.match(json, { format_version: '1.0', drift: true });
  const fix = await cli(['apply', '-f', 'robot.yaml', '--yes'], dir);
  t.equal(fix.code, 0);
  t.match(fix.stdout, /webhooks\.hook-1: updated \(id/);
  t.equal((await cli(['diff', '-f', 'robot.yaml'], dir)).code, 0);
});

t.test('import adopts an existing webhook; the next apply makes it match the file', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', fleetOfHooks('import', 1));
  const client = createHubClient({ endpoint: hub.url, token: USER.token });
  const existing = await client.createWebhook({ url: 'https://example.org/import/old', watched: [{ type: 'user', name: 'alice' }] });
  await client.close();
  const imp = await cli(['import', 'webhooks.hook-0', existing.id, '-f', 'robot.yaml'], dir);
  t.equal(imp.code, 0, imp.stderr);
  t.equal(stateOf(dir).webhooks['hook-0']?.id, existing.id);
  const missing = await cli(['import', 'webhooks.hook-0', 'nope', '-f', 'robot.yaml'], dir);
  t.equal(missing.code, 1);
  const p = await cli(['plan', '-f', 'robot.yaml'], dir);
  t.equal(p.code, 2);
  t.match(p.stdout, new RegExp(`webhooks.hook-0 \\(id ${existing.id}\\) will be updated`));
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--yes'], dir)).code, 0);
  const hooks = await hooksFor('import');
  t.same(hooks.map((h) => [h.id, h.url]), [[existing.id, 'https://example.org/import/0']]);
});

t.test('without a terminal and without --yes, apply refuses', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', fleetOfHooks('refuse', 1));
  const r = await cli(['apply', '-f', 'robot.yaml'], dir);
  t.equal(r.code, 1);
  t.match(r.stderr, /pass --yes/);
  t.equal((await hooksFor('refuse')).length, 0);
});

t.test('--dry-run changes nothing; a saved plan applies, a stale one is rejected', async (t) => {
  const dir = t.testdir();
  writeYaml(dir, 'robot.yaml', fleetOfHooks('saved', 2));
  hub.resetStats();
  const dry = await cli(['apply', '-f', 'robot.yaml', '--dry-run'], dir);
  t.equal(dry.code, 0);
  t.match(dry.stdout, /Dry run: nothing was changed/);
  t.equal(hub.stats().writes, 0);
  const p = await cli(['plan', '-f', 'robot.yaml', '--out', 'plan.json'], dir);
  t.equal(p.code, 2);
  const saved = readFileSync(join(dir, 'plan.json'), 'utf8');
  t.match(JSON.parse(saved), { format_version: '2.1', observed_digest: /^sha256:/, secret_salt: /./ });
  t.notOk(saved.includes(SECRET));
  t.equal((await cli(['apply', '-f', 'robot.yaml', '--plan', 'plan.json'], dir)).code, 0);
  t.equal((await hooksFor('saved')).length, 2);
  const stale = await cli(['apply', '-f', 'robot.yaml', '--plan', 'plan.json'], dir);
  t.equal(stale.code, 1);
  t.match(stale.stderr, /is stale.*: run `(robotctl|node \S+\/bin\/robotctl\.js) plan -f robot\.yaml --out plan\.json` again/, 'robotctl as it runs here (cli/views/command-line.ts)');
  t.equal((await hooksFor('saved')).length, 2, 'nothing applied twice');
});

t.test('no secret in any output or state file', async (t) => {
  const all = outputs.join('\n');
  t.ok(all.length > 1000);
  t.notOk(all.includes(SECRET), 'the webhook secret never printed');
  t.notOk(all.includes('another-secret-value'), 'nor the one set by hand');
  t.notOk(all.includes(USER.token), 'nor the token');
});
