import type { Io } from '../../lib/io.js';
import { ExitError, UserError } from '../../lib/errors.js';
import { readLine } from '../prompt.js';

// Terraform's question, asked only where a human can answer it.

export const QUESTION = "Do you want to perform these actions? Only 'yes' will be accepted: ";

export async function confirmApply(io: Io, summary: string): Promise<void> {
  if (!io.stdinIsTTY) {
    throw new UserError('refusing to apply without confirmation: there is no terminal to ask on; pass --yes to apply non-interactively');
  }
  io.out(`\n${summary}\n${QUESTION}`);
  const answer = await readLine();
  if (answer?.trim() !== 'yes') {
    io.out('\nApply cancelled: nothing was changed.\n');
    throw new ExitError(1);
  }
}
