import { realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import { packagePath } from '../../lib/paths.js';

// The commands `up` prints are meant to be pasted into another terminal. After
// `npm ci` alone there is no `robotctl` on the PATH (`npm start` runs
// `node bin/robotctl.js up`), so they say `node bin/robotctl.js` unless the
// `robotctl` the shell would find is this very clone's (`npm link`, or a
// global install of it). `npx robotctl` was measured and not chosen: 0.6-1.1 s
// a call where `node bin/robotctl.js` takes 0.06-0.17 s, and its first call
// may ask the registry (10 s here, offline).

export interface RobotctlCommand {
  /** What to type: `robotctl`, or `node <bin>` (relative to the working folder when inside it). */
  command: string;
  /** True when `robotctl` on the PATH is this clone's. */
  onPath: boolean;
}

export function robotctlCommand(env: NodeJS.ProcessEnv, cwd: string, bin: string = packagePath('bin', 'robotctl.js')): RobotctlCommand {
  const ours = real(bin);
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const found = real(join(dir, 'robotctl'));
    if (found !== null) return found === ours ? { command: 'robotctl', onPath: true } : viaNode(cwd, bin);
  }
  return viaNode(cwd, bin);
}

function viaNode(cwd: string, bin: string): RobotctlCommand {
  const rel = relative(cwd, bin);
  const shown = rel.startsWith('..') || isAbsolute(rel) ? bin : rel;
  return { command: `node ${/\s/.test(shown) ? `'${shown}'` : shown}`, onPath: false };
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
