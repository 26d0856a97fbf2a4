import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runCli, spawnLongRunning } from '../helpers/cli.js';
import { postgresMissing, startPostgres, type TestPostgres } from '../helpers/postgres.js';

// `up` keeps its state where the file's `state:` block says, like plan and
// apply on the same file: a dataset of up's own embedded hub, or a
// PostgreSQL table. No local state file appears, and `plan` in another
// terminal (reading .robotctl/env, which up keeps) sees nothing to do.

const noPg = postgresMissing();
let server: TestPostgres | null = null;
t.before(async () => { if (!noPg) server = await startPostgres(); });
t.teardown(async () => { await server?.stop(); });

async function pgDoc(key: string): Promise<{ webhooks: Record<string, unknown> } | null> {
  const client = new pg.Client({ connectionString: server?.url });
  await client.connect();
  try {
    const res = await client.query<{ doc: { webhooks: Record<string, unknown> } }>('SELECT doc FROM robotctl_state WHERE key = $1', [key]);
    return res.rows[0]?.doc ?? null;
  } finally {
    await client.end();
  }
}

async function hubDoc(hubUrl: string, token: string): Promise<{ webhooks: Record<string, unknown> } | null> {
  const res = await fetch(`${hubUrl}/datasets/demo/up-state/resolve/main/state.json`, { headers: { authorization: `Bearer ${token}` } });
  return res.ok ? ((await res.json()) as { webhooks: Record<string, unknown> }) : null;
}

const cases: [string, () => string, RegExp, string | false][] = [
  ['hub', () => '{ backend: hub, repo: demo/up-state }', /^state: hub dataset demo\/up-state \(state\.json\)$/m, false],
  ['postgres', () => `{ backend: postgres, url: "${server?.url ?? ''}", key: up }`, /^state: postgres postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres table robotctl_state key up$/m, noPg ?? false],
];

for (const [kind, block, where, skip] of cases) {
  t.test(`up honours a ${kind} state: block`, { skip }, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), `robotctl-up-state-${kind}-`));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'robot.yaml');
    writeFileSync(file, `version: 1\nstate: ${block()}\nwebhooks:\n  notify: { url: "http://127.0.0.1:9/up/${kind}", watched: [user:demo], secret: "\${WEBHOOK_SECRET}" }\nreceiver: { port: 0, secret: "\${WEBHOOK_SECRET}", endpoints: { redeploy: { action: reconcile } } }\n`);
    const data = join(dir, 'data');
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', WEBHOOK_SECRET: 'up-state-secret' };
    for (const k of ['HF_TOKEN', 'HF_ENDPOINT', 'ROBOTCTL_STATE']) delete env[k];
    const up = spawnLongRunning(t, ['up', '-f', file, '--data', data, '--hub-port', '0'], env);
    await up.waitFor('Ctrl-C stops everything', 90_000); // the end of the ready block
    const out = up.output();
    t.match(out, /robotctl up: ready/, 'up is ready');
    t.match(out, where, 'up says where the state is');
    t.notOk(existsSync(join(dir, '.robotctl', 'state.json')), 'no local state file');
    const hubUrl = /hub: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? '';
    const token = readFileSync(join(data, 'hub-token'), 'utf8').trim();
    const doc = kind === 'hub' ? await hubDoc(hubUrl, token) : await pgDoc('up');
    t.same(Object.keys(doc?.webhooks ?? {}), ['notify'], `the ${kind} state owns the webhook up created`);
    const plan = await runCli(['plan', '-f', file], { env: { PATH: process.env.PATH ?? '', HOME: dir, WEBHOOK_SECRET: 'up-state-secret' }, cwd: dir });
    t.equal(plan.code, 0, plan.stderr);
    t.match(plan.stdout, /No changes/, 'plan in another terminal reads the same state');
    up.child.kill('SIGINT');
    t.equal(await up.exited, 0, 'Ctrl-C stops it cleanly');
    t.notMatch(up.output(), /while stopping/, 'the state store closed with the rest');
  });
}
