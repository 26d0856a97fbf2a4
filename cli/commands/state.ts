import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UsageError, UserError } from '../../lib/errors.js';
import { newCommand, parse, subCommand } from '../command.js';
import { newState } from '../../state/file.js';
import { describeHolder } from '../../state/lock.js';
import { openStore } from '../../state/open.js';
import { parseSpec } from '../../state/spec.js';
import { readHubEndpoint } from '../../schema/top-level.js';
import type { StateStore } from '../../state/store.js';
import { migrateState } from '../../state/migrate.js';
import { noteTo, withFileState } from '../session/state.js';
import { parseDuration } from '../session/session.js';
import { newStateView } from '../views/state-view.js';
import { viewType } from '../views/view-type.js';
import { EXIT } from '../exit-codes.js';
import { commandLine } from '../views/command-line.js';

interface Common { file: string; state?: string; token?: string }

// The backend is found from --state, ROBOTCTL_STATE or robot.yaml's state:
// block (read on its own); the rest of robot.yaml is not loaded, so a broken
// file or a missing ${VAR} elsewhere never blocks these.
function withStore<T>(io: Io, o: Common, work: (store: StateStore) => Promise<T>): Promise<T> {
  return withFileState(io, o, work);
}

export async function run(args: string[], io: Io): Promise<number> {
  const root = newCommand('state', io).description('Inspect, move or unlock the state (local file, hub dataset or PostgreSQL)');
  const common = (name: string, summary: string) => subCommand(root, name, io).description(summary)
    .option('-f, --file <file>', 'the robot.yaml whose state this is', 'robot.yaml')
    .option('--state <backend>', "a file path, hub:OWNER/NAME or postgres://… (default: ROBOTCTL_STATE, robot.yaml's state:, .robotctl/state.json)")
    .option('--token <token>', 'hub token for a hub backend (default: HF_TOKEN, then the token file)');

  common('show', 'Print what this file owns: webhook ids, installed apps, and who holds the lock')
    .option('--json', 'print a JSON document (format_version)')
    .action(async (o: Common & { json?: boolean }) => withStore(io, o, async (store) => {
      const view = newStateView(viewType(o), io);
      const stored = await store.read();
      const lock = await store.holder().catch(() => null);
      view.show(store.where, stored !== null, stored ?? newState(), lock);
    }));

  common('unlock', 'Remove the state lock (only when no robotctl apply is running)')
    .option('--force', 'required: breaking the lock of a running apply can corrupt the state')
    .action(async (o: Common & { force?: boolean }) => {
      if (!o.force) throw new UsageError('state unlock needs --force: make sure no robotctl apply is running on this state first');
      await withStore(io, o, async (store) => {
        const holder = await store.breakLock();
        io.out(holder ? `Lock removed (it was held: ${describeHolder(holder)}).\n` : 'The state was not locked.\n');
      });
    });

  common('migrate', 'Copy the state, lineage and serial included, to another backend')
    .requiredOption('--to <backend>', 'where to: a file path, hub:OWNER/NAME or postgres://… (postgres alone: the PG* variables)')
    .option('--lock-timeout <duration>', 'how long to wait for a lock on either side', '30s')
    .action(async (o: Common & { to: string; lockTimeout: string }) => {
      const timeoutMs = parseDuration(o.lockTimeout, '--lock-timeout');
      const target = await openStore(parseSpec(o.to, io.cwd, '--to'), { env: io.env, hubEndpoint: readHubEndpoint(resolve(io.cwd, o.file)), token: o.token, command: commandLine(io) });
      try {
        await withStore(io, o, async (source) => {
          if (source.kind === target.kind && source.where === target.where) throw new UserError(`--to names the state it would copy from (${source.where})`);
          const copied = await migrateState(source, target, { timeoutMs, onNote: noteTo(io), command: commandLine(io) });
          io.out(`Copied the state (lineage ${copied.lineage}, serial ${copied.serial}) from ${source.where} to ${target.where}.\n`
            + `Point robot.yaml's state: at it (or set ROBOTCTL_STATE) so that the next runs use it; ${source.where} is left as it was.\n`);
        });
      } finally {
        await target.close();
      }
    });

  await parse(root, args);
  return EXIT.ok;
}
