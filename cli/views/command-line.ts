import { realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';
import type { Io } from '../../lib/io.js';
import { shellWord, type CommandLine } from '../../lib/command-line.js';
import { packagePath } from '../../lib/paths.js';

// The one place that writes how to run robotctl in a command line shown to
// the user. After `npm ci` alone there is no `robotctl` on the PATH (`npm
// start` runs `node bin/robotctl.js up`), so commands say `node
// bin/robotctl.js` unless the `robotctl` the shell would find is this very
// clone's (`npm link`, or a global install of it). `npx robotctl` was measured
// and not chosen: 0.6-1.1 s a call where `node bin/robotctl.js` takes
// 0.06-0.17 s, and its first call may ask the registry (10 s here, offline).
// The PATH is looked up once per Io, when the first command line is written:
// a command that prints none pays nothing.

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

type Place = Pick<Io, 'env' | 'cwd'>;
const looked = new WeakMap<Place, RobotctlCommand>();

/** How robotctl is run from io's folder, looked up at the first call for that Io. */
export function robotctlOf(io: Place): RobotctlCommand {
  let found = looked.get(io);
  if (!found) {
    found = robotctlCommand(io.env, io.cwd);
    looked.set(io, found);
  }
  return found;
}

/** The writer of every robotctl command line the user is shown from io's folder. */
export function commandLine(io: Place): CommandLine {
  return (args) => lineOf(robotctlOf(io), args);
}

/** A command line for a robotctl already looked up (up's ready block looks once for all its lines). */
export function lineOf(robotctl: RobotctlCommand, args: string): string {
  return `${robotctl.command} ${args}`;
}

function viaNode(cwd: string, bin: string): RobotctlCommand {
  const rel = relative(cwd, bin);
  const shown = rel.startsWith('..') || isAbsolute(rel) ? bin : rel;
  return { command: `node ${shellWord(shown)}`, onPath: false };
}

function real(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
