import type { Io } from '../../lib/io.js';
import { UserError } from '../../lib/errors.js';

// PLACEHOLDER: replaced by the issue that builds this command.
export async function run(_args: string[], _io: Io): Promise<number> {
  throw new UserError('`robotctl webhooks` is not built yet');
}
