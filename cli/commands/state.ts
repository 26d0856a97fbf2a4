import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UsageError } from '../../lib/errors.js';
import { EXIT } from '../exit-codes.js';
import { newCommand, parse, subCommand } from '../command.js';
import { readState, statePath } from '../../state/file.js';
import { breakLock, describeHolder, readLock } from '../../state/lock.js';
import { newStateView } from '../views/state-view.js';
import { viewType } from '../views/view-type.js';

interface Common { file: string; state?: string }

// The state file is found from -f (beside it) or --state; robot.yaml itself
// is not loaded, so a broken file or a missing ${VAR} never blocks these.
function pathOf(io: Io, o: Common): string {
  return statePath(resolve(io.cwd, o.file), o.state ? resolve(io.cwd, o.state) : null);
}

export async function run(args: string[], io: Io): Promise<number> {
  const root = newCommand('state', io).description('Inspect the state file or break a stale lock');
  const common = (name: string, summary: string) => subCommand(root, name, io).description(summary)
    .option('-f, --file <file>', 'the robot.yaml whose state this is', 'robot.yaml')
    .option('--state <path>', 'state file (default: .robotctl/state.json beside the file)');

  common('show', 'Print what this file owns: webhook ids, installed apps, and who holds the lock')
    .option('--json', 'print a JSON document (format_version)')
    .action(async (o: Common & { json?: boolean }) => {
      const view = newStateView(viewType(o), io);
      const path = pathOf(io, o);
      const exists = existsSync(path);
      const state = await readState(path);
      const lock = await readLock(path).catch(() => null);
      view.show(path, exists, state, lock);
    });

  common('unlock', 'Remove the state lock (only when no robotctl apply is running)')
    .option('--force', 'required: breaking the lock of a running apply can corrupt the state')
    .action(async (o: Common & { force?: boolean }) => {
      if (!o.force) throw new UsageError('state unlock needs --force: make sure no robotctl apply is running on this state first');
      const holder = await breakLock(pathOf(io, o));
      io.out(holder ? `Lock removed (it was held: ${describeHolder(holder)}).\n` : 'The state was not locked.\n');
    });

  await parse(root, args);
  return EXIT.ok;
}
