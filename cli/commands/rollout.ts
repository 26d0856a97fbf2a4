import type { Io } from '../../lib/io.js';
import { UsageError } from '../../lib/errors.js';
import { newCommand, parse, subCommand } from '../command.js';
import { newState } from '../../state/file.js';
import { releaseHolds, rolloutLog } from '../../state/rollouts.js';
import { noteTo, withFileState, type StateFlags } from '../session/state.js';
import { parseDuration } from '../session/session.js';
import { newRolloutView } from '../views/rollout-view.js';
import { viewType } from '../views/view-type.js';
import { EXIT } from '../exit-codes.js';
import { commandLine } from '../views/command-line.js';

// `robotctl rollout history`: the last rollouts the state remembers.
// `robotctl rollout retry [APP]`: release the revisions held back after a
// failed rollout, so the next apply or agent run installs them again. Both
// read only the state (robot.yaml's other blocks are not loaded), like
// `robotctl state`.

interface Common extends StateFlags { json?: boolean }

const HISTORY_AFTER = `
Each rollout: its id, when it started, what started it (apply, file, delivery,
interval, startup), each app's revisions (before → after), its waves (canary
first), its outcome (succeeded, failed, rolled back, interrupted) and how long
it took; below, the robots that failed or were rolled back, with the reason in
the robot's own words, and the revisions held back.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const root = newCommand('rollout', io).description('The rollouts of robot.yaml: history, and retry of a held-back revision');
  const common = (name: string, summary: string) => subCommand(root, name, io).description(summary)
    .option('-f, --file <file>', 'the robot.yaml whose rollouts these are', 'robot.yaml')
    .option('--state <backend>', "a file path, hub:OWNER/NAME or postgres://… (default: ROBOTCTL_STATE, robot.yaml's state:, .robotctl/state.json)")
    .option('--token <token>', 'hub token for a hub backend (default: HF_TOKEN, then the token file)')
    .option('--json', 'print a JSON document (format_version)');

  common('history', 'List the last rollouts: time, trigger, revisions, waves, outcome, duration')
    .option('-n, --limit <n>', 'how many (newest first)', '10')
    .addHelpText('after', HISTORY_AFTER)
    .action(async (o: Common & { limit: string }) => {
      const limit = Number(o.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit: expected a whole number of 1 or more, got '${o.limit}'`);
      await withFileState(io, o, async (store) => {
        newRolloutView(viewType(o), io).history(rolloutLog((await store.read()) ?? newState()), limit);
      });
    });

  common('retry', 'Release the revision held back for APP (every app when none is named): the next apply or agent run tries it again')
    .argument('[app]', 'the app (a key of robot.yaml apps:)')
    .option('--lock-timeout <duration>', 'how long to wait for an apply or the agent holding the state lock', '30s')
    .action(async (app: string | undefined, o: Common & { lockTimeout: string }) => {
      const timeoutMs = parseDuration(o.lockTimeout, '--lock-timeout');
      await withFileState(io, o, async (store) => {
        const lock = await store.lock({ timeoutMs, operation: 'rollout retry', onNote: noteTo(io), command: commandLine(io) });
        try {
          const state = (await store.read()) ?? newState();
          const log = rolloutLog(state);
          const asked = app === undefined ? [] : [app];
          const { log: next, released } = releaseHolds(log, asked);
          if (released.length > 0) await store.write({ ...state, rollouts: next });
          newRolloutView(viewType(o), io).retried(released.map((a) => ({ app: a, sha: log.held[a]?.sha ?? '' })), asked);
        } finally {
          await lock.release();
        }
      });
    });

  await parse(root, args);
  return EXIT.ok;
}
