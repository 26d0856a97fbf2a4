import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// Makes an app folder a git clone of its Space, as the real app assistant's
// `create --publish` does, so the author's loop is edit, commit, `git push`.
// The token reaches git through the environment (http.extraHeader), never
// argv, and is not written into .git/config.

export interface GitRemoteResult {
  remote: string;
  /** The commit the local main now starts from (the Space's head). */
  head: string;
}

function git(args: string[], cwd: string, token: string | null): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  if (token) Object.assign(env, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: `Authorization: Bearer ${token}` });
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args[0] ?? ''}: ${(stderr || err.message).trim().split('\n').pop() ?? ''}`));
      else resolve(stdout.trim());
    });
  });
}

/** origin = the Space; local main tracks origin/main; the files stay as they are (the Space has them). */
export async function linkSpaceRemote(folder: string, remote: string, token: string | null): Promise<GitRemoteResult> {
  if (!existsSync(join(folder, '.git'))) await git(['init', '--quiet', '--initial-branch=main'], folder, null);
  const remotes = (await git(['remote'], folder, null)).split('\n');
  await git(remotes.includes('origin') ? ['remote', 'set-url', 'origin', remote] : ['remote', 'add', 'origin', remote], folder, null);
  await git(['fetch', '--quiet', 'origin', 'main'], folder, token);
  await git(['reset', '--quiet', '--mixed', 'origin/main'], folder, null);
  await git(['branch', '--quiet', '--set-upstream-to=origin/main', 'main'], folder, null);
  // Files the Space has and the folder lacks (.gitattributes, made by the hub).
  await git(['checkout', '--quiet', '--', '.'], folder, null);
  return { remote, head: await git(['rev-parse', 'HEAD'], folder, null) };
}
