import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Debian's git client, run as a user would, in a throw-away HOME: identity and
// (optionally) the hub token in a credential store file, never in argv.

export interface GitUser {
  home: string;
  run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }>;
}

export function gitUser(home: string, credentials: { url: string; user: string; token: string } | null): GitUser {
  mkdirSync(home, { recursive: true });
  const lines = ['[user]', '\tname = Test Author', '\temail = author@example.org', '[init]', '\tdefaultBranch = main', '[advice]', '\tdetachedHead = false'];
  if (credentials) {
    const u = new URL(credentials.url);
    writeFileSync(join(home, '.git-credentials'), `${u.protocol}//${credentials.user}:${credentials.token}@${u.host}\n`, { mode: 0o600 });
    lines.push('[credential]', '\thelper = store');
  }
  writeFileSync(join(home, '.gitconfig'), `${lines.join('\n')}\n`);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
  return {
    home,
    run: (args, cwd) => new Promise((resolve) => {
      execFile('git', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    }),
  };
}
