import t from 'tap';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { bin, pathWithoutRobotctl, repoRoot, runProcess, spawnLongRunning } from '../helpers/cli.js';

// Each example's header commands, run as written from a clone's root (issue
// 34.7): `robotctl up …` first, then each other command in another shell while
// it runs, with `robotctl` on the PATH as `npm link` makes it. Run inside the
// private network namespace of example-headers.test.ts (fixed ports).

/** The `#   robotctl …` lines of a file's header comment, without their trailing comments. */
function headerCommands(file: string): string[] {
  const header = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('#'));
  return header.map((l) => /^#   (robotctl \S.*?)(?:\s{2,}#.*)?$/.exec(l)?.[1]).filter((c): c is string => c !== undefined);
}

for (const [name, expect] of [
  ['fleet.yaml', [/^robots:$/m, /No changes\. The hub and robots match robot\.yaml\./, /No changes/]],
  ['robot.yaml', [/^examples\/robot\.yaml: valid$/m, /No changes/]],
] as const) {
  t.test(`examples/${name}: its header commands work as written`, { timeout: 300_000 }, async (t) => {
    const commands = headerCommands(join(repoRoot, 'examples', name));
    t.match(commands[0], /^robotctl up( |$)/, `the header starts with up: ${commands.join(' | ')}`);
    t.equal(commands.length, expect.length + 1, 'every command is checked');
    // A clone's root: the examples (without any .robotctl/ of a session), robotctl linked as `npm link` does.
    const root = t.testdir();
    cpSync(join(repoRoot, 'examples'), join(root, 'examples'), { recursive: true, filter: (src) => !/\/(\.robotctl|__pycache__)(\/|$)/.test(src) });
    mkdirSync(join(root, 'linked'));
    symlinkSync(bin, join(root, 'linked', 'robotctl'));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${join(root, 'linked')}:${pathWithoutRobotctl()}`, HOME: join(root, 'home'), NO_COLOR: '1' };
    for (const k of ['WEBHOOK_SECRET', 'HF_TOKEN', 'HF_ENDPOINT', 'HF_TOKEN_PATH', 'ROBOTCTL_STATE']) delete env[k];

    const up = spawnLongRunning(t, (commands[0] ?? '').split(' ').slice(1), env, { cwd: root });
    await up.waitFor('Ctrl-C stops everything', 180_000);
    t.match(up.stdout(), /robotctl up: ready\n/, up.output());
    for (const [i, cmd] of commands.slice(1).entries()) {
      const r = await runProcess('bash', ['-c', `cd "$0" && ${cmd}`, root], env);
      t.equal(r.code, 0, `\`${cmd}\` exits 0\n${r.stdout}\n${r.stderr}`);
      t.match(r.stdout, expect[i] as RegExp, `\`${cmd}\` says what the header promises`);
    }
    up.child.kill('SIGINT');
    t.equal(await up.exited, 0, 'up stops cleanly');
  });
}
