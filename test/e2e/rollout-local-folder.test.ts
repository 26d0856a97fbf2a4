import t from 'tap';
import { join } from 'node:path';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { QUIET_BODY, appFiles, makeApp } from '../helpers/python-apps.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { USER, writeYaml } from './helpers.js';

// `robotctl rollout history` after real rollouts of an app from a local
// folder (`path:`), which has no revision: the install reads `new → local
// files`, and the move of that app to its Space `local files → <sha>`, never
// `?` nor `new`. Through the built CLI, the embedded hub and a simulated robot.

const SPACE = `${USER.name}/oneshot_app`;
let hub: RunningHub;
let daemon: RunningDaemon;
let sha = '';
const scratch = fileScratch('e2e-rollout-folder');
const dir = scratch.dir;

t.before(async () => {
  hub = await startHub({ users: [USER] });
  await hub.createRepo(USER.name, 'space', SPACE, { sdk: 'static' });
  sha = (await hub.commit(USER.name, 'space', SPACE, appFiles('oneshot_app', QUIET_BODY, { marker: 'space' }), 'v1')).commitOid;
  daemon = await startDaemon({ appsDir: join(dir, 'robot'), sim: true, port: 0, robotName: 'desk', hubEndpoint: hub.url, hubToken: USER.token, startupApp: null });
  makeApp(dir, 'oneshot_app', QUIET_BODY, { marker: 'folder' });
});
t.teardown(async () => {
  await daemon?.close();
  await hub?.close();
  scratch.remove();
});

const yaml = (from: string): string => `version: 1\napps:\n  oneshot_app: { ${from} }\nactive: null\nrobots:\n  desk: { url: ${daemon.url} }\n`;

function cli(args: string[]): Promise<CliResult> {
  return runCli(args, { env: { HF_ENDPOINT: hub.url, HF_TOKEN: USER.token, HF_HOME: join(dir, 'hf') }, cwd: dir, timeoutMs: 240_000 });
}

/** The rows of `rollout history` under its header, newest first. */
async function historyRows(): Promise<string[]> {
  const h = await cli(['rollout', 'history', '-f', 'robot.yaml']);
  if (h.code !== 0) throw new Error(`rollout history exited ${h.code}: ${h.stderr}`);
  const lines = h.stdout.split('\n');
  return lines.slice(1, lines.indexOf(''));
}

t.test('an install from a folder, then the move to its Space', async (t) => {
  writeYaml(dir, 'robot.yaml', yaml('path: ./oneshot_app'));
  const first = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(first.code, 0, first.stdout + first.stderr);
  let rows = await historyRows();
  t.equal(rows.length, 1);
  t.match(rows[0], /^\S+ +\S+ \S+ +apply +oneshot_app new → local files +desk +succeeded +\S+$/);

  writeYaml(dir, 'robot.yaml', yaml(`source: ${hub.url}/spaces/${SPACE}`));
  const planned = await cli(['plan', '-f', 'robot.yaml']);
  t.match(planned.stdout, new RegExp(`^  ~ update_app oneshot_app local files → ${sha.slice(0, 7)} from `, 'm'), 'plan says what history says');
  const moved = await cli(['apply', '-f', 'robot.yaml', '--yes']);
  t.equal(moved.code, 0, moved.stdout + moved.stderr);
  t.match(moved.stdout, new RegExp(`update oneshot_app local files → ${sha.slice(0, 7)}`), 'apply too');
  t.notMatch(planned.stdout + moved.stdout, /local-[0-9a-f]/, "never the daemon's own local-<hash>");
  rows = await historyRows();
  t.equal(rows.length, 2);
  t.match(rows[0], new RegExp(`^\\S+ +\\S+ \\S+ +apply +oneshot_app local files → ${sha.slice(0, 7)} +desk +succeeded +\\S+$`));

  const json = JSON.parse((await cli(['rollout', 'history', '-f', 'robot.yaml', '--json'])).stdout) as { rollouts: { revisions: Record<string, unknown>[] }[] };
  t.match(json.rollouts.map((r) => r.revisions[0]), [
    { robot: 'desk', app: 'oneshot_app', from: /^local-[0-9a-f]+$/, to: sha, from_path: join(dir, 'oneshot_app') },
    { robot: 'desk', app: 'oneshot_app', from: null, to: null, to_path: join(dir, 'oneshot_app') },
  ], 'the folder is named; `from` is what the daemon reported for it (its own local-<hash>)');
  t.equal(json.rollouts[1]?.revisions.length, 1);
});
