import { ExitError } from '../../lib/errors.js';
import { ansi, useColor, type Io } from '../../lib/io.js';

// The assistant's ✅/❌ lines, as ASCII tags: `[OK] …` on stdout, `[ERROR] …`
// on stderr, coloured only on a terminal.
export function ok(io: Io, message: string): void {
  const tag = useColor(io) ? ansi.green('[OK]') : '[OK]';
  io.out(`${tag} ${message}\n`);
}

export function info(io: Io, message: string): void {
  io.out(`${message}\n`);
}

export function errorLine(io: Io, message: string): void {
  const tag = useColor(io) ? ansi.red('[ERROR]') : '[ERROR]';
  io.err(`${tag} ${message}\n`);
}

/** Print `[ERROR] message` (plus hints) and leave with exit 1. */
export function fail(io: Io, message: string, ...hints: string[]): never {
  errorLine(io, message);
  for (const hint of hints) io.err(`${hint}\n`);
  throw new ExitError(1);
}
