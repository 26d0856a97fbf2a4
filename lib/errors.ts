// A few error classes for control flow; the CLI's single top-level catch maps
// them to exit codes. User mistakes never show a stack trace.

/** A mistake in the user's file, flags or environment. Printed as-is, exit 1. */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** Wrong command-line usage. Exit 64 (sysexits' EX_USAGE): never 2, which means drift. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 64);
    this.name = 'UsageError';
  }
}

/** Leave with this code; whatever had to be said was already printed. */
export class ExitError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'ExitError';
    this.exitCode = exitCode;
  }
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
