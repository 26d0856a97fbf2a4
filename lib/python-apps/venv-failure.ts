// What to say when `python -m venv` made no environment, in one place for the
// daemon's apps venv and for `app check`'s temporary one. A venv creation
// killed by a signal (Ctrl-C, a stopping daemon) was interrupted: python3-venv
// is not missing then, and saying so would send the user to fix the wrong thing.

export interface VenvOutcome {
  /** The signal that ended `python -m venv`, null when it exited by itself. */
  signal: string | null;
  /** The last lines it printed, or why it could not run. */
  detail: string;
}

/** Debian's fix for a Python that cannot create virtual environments. */
export const VENV_FIX = 'apt-get install python3-venv';

export function venvFailure(python: string, outcome: VenvOutcome): string {
  if (outcome.signal) return `${python} -m venv was interrupted by ${outcome.signal}: no virtual environment was created`;
  const detail = outcome.detail.trim();
  return `${python} -m venv failed${detail ? `: ${detail}` : ''} (is python3-venv installed? Fix: ${VENV_FIX})`;
}
