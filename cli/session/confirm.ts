import type { Io } from '../../lib/io.js';
import { ExitError, UserError } from '../../lib/errors.js';
import { EXIT } from '../exit-codes.js';
import { readLine } from '../prompt.js';

// Terraform's question, asked only where a human can answer it. The plan and
// its `Plan:` line were just printed above it, so the question stands alone.

export const QUESTION = "Do you want to perform these actions? Only 'yes' will be accepted: ";

export async function confirmApply(io: Io, say: (text: string) => void): Promise<void> {
  if (!io.stdinIsTTY) {
    throw new UserError('refusing to apply without confirmation: there is no terminal to ask on; pass --yes to apply non-interactively');
  }
  say(`\n${QUESTION}`);
  const answer = await readLine();
  if (answer?.trim() !== 'yes') {
    say('\nApply cancelled: nothing was changed.\n');
    throw new ExitError(EXIT.error);
  }
}
