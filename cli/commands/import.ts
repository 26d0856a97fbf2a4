import type { Io } from '../../lib/io.js';
import { UsageError, UserError } from '../../lib/errors.js';
import { withSessionOptions, type SessionFlags } from '../session/options.js';
import { newCommand, parse } from '../command.js';
import { isNotFound } from '../../drivers/hub/errors.js';
import { newState } from '../../state/file.js';
import { noteTo } from '../session/state.js';
import { applyChange } from '../../state/journal.js';
import { openSession, parseDuration } from '../session/session.js';
import { EXIT } from '../exit-codes.js';
import { commandLine } from '../views/command-line.js';
import { shellWord } from '../../lib/command-line.js';

interface Options extends SessionFlags { lockTimeout: string }

// A hash no spec can have: the next plan compares the webhook field by field
// and updates it to match robot.yaml (nothing is assumed about it).
const IMPORTED = 'imported';

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = withSessionOptions(newCommand('import', io))
    .description('Adopt an existing hub webhook into the state: import webhooks.NAME ID')
    .argument('<address>', 'webhooks.NAME, a webhook declared in robot.yaml')
    .argument('<id>', 'the hub id of the existing webhook')
    .option('--lock-timeout <duration>', 'how long to wait for another robotctl holding the state lock', '30s')
    .addHelpText('after', () => `\nThe next \`${commandLine(io)('plan')}\` then shows what it takes to make the webhook match the file.\n`);
  await parse(cmd, args);
  const [address = '', id = ''] = cmd.args;
  const o = cmd.opts<Options>();
  const m = /^webhooks\.(.+)$/.exec(address);
  if (!m) throw new UsageError(`cannot import '${address}': only webhooks can be imported, as webhooks.NAME`);
  const name = m[1] as string;
  const session = await openSession(io, o, 'import');
  try {
    if (!(name in session.config.webhooks)) {
      throw new UserError(`webhooks.${name} is not declared in ${o.file}: add it under webhooks: first, then import`);
    }
    const lock = await session.store.lock({ timeoutMs: parseDuration(o.lockTimeout, '--lock-timeout'), operation: 'import', onNote: noteTo(io), command: commandLine(io) });
    try {
      const state = (await session.store.read()) ?? newState();
      checkOwnership(state.webhooks, name, id);
      const hook = await session.hub.getWebhook(id).catch((err: unknown) => {
        if (isNotFound(err)) throw new UserError(`there is no webhook ${id} on ${session.hub.endpoint} (or it belongs to another account)`);
        throw err;
      });
      await session.store.write(applyChange(state, { webhook: name, record: { id: hook.id, specHash: IMPORTED } }));
    } finally {
      await lock.release();
    }
    io.out(`Imported webhook ${id} as webhooks.${name}.\nRun \`${commandLine(io)(`plan -f ${shellWord(o.file)}`)}\` to see what it takes to match the file.\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

function checkOwnership(owned: Record<string, { id: string }>, name: string, id: string): void {
  const current = owned[name];
  if (current?.id === id) throw new UserError(`webhook ${id} is already imported as webhooks.${name}`);
  if (current) throw new UserError(`webhooks.${name} already owns webhook ${current.id}; remove it from the state (delete the webhook or rename it in the file) before importing another`);
  const other = Object.entries(owned).find(([, w]) => w.id === id);
  if (other) throw new UserError(`webhook ${id} is already owned by webhooks.${other[0]}`);
}
