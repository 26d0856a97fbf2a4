import type { Io } from '../../lib/io.js';
import { errorMessage } from '../../lib/errors.js';
import { resolveToken } from '../../drivers/hub/token.js';
import { linkSpaceRemote } from '../../drivers/hub/git-remote.js';
import { info, ok } from './report.js';
import { commandLine } from '../views/command-line.js';

/** After `app create --publish`: the folder becomes a clone of its Space, so `git push` redeploys. */
export async function setSpaceRemote(folder: string, spaceUrl: string, flagToken: string | undefined, io: Io): Promise<void> {
  const token = resolveToken({ flag: flagToken ?? null, env: io.env });
  try {
    const { remote } = await linkSpaceRemote(folder, spaceUrl, token?.token ?? null);
    ok(io, `Git remote 'origin' is ${remote}: commit, then \`git push\` to publish (use your Hub token as the password)`);
  } catch (err) {
    // The Space is published; only the convenience failed.
    info(io, `Could not set the folder's git remote (${errorMessage(err)}); \`${commandLine(io)('app publish')}\` still works.`);
  }
}
