// Why a robot says something failed, in its own words (issue 30.1): the
// lines of pip and uv that start with `ERROR:` (uv and setuptools write
// `error:`) and the exception that ends the last traceback, read from an
// install job's log or from a crashed app's error, without terminal colours,
// each line once, at most five. The daemon's own summary ("Failed to install
// app 'x'", "Process exited with code 1") says only that it failed.

/** At most this many reason lines. */
export const MAX_REASON_LINES = 5;
/** The end of a job log or traceback shown with --json. */
export const LOG_TAIL_LINES = 20;

// pip colours its lines even into a pipe when its console thinks it may (spec §9 shows them bare).
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** A log line as text: no colour escapes, no trailing blanks. */
export function plainLine(line: string): string {
  return line.replace(ANSI, '').trimEnd();
}

/** The exception line that ends the last traceback in `lines` (`RuntimeError: boom`), or null. */
export function lastException(lines: readonly string[]): string | null {
  let start = -1;
  lines.forEach((l, i) => { if (l.startsWith('Traceback (most recent call last):')) start = i; });
  if (start < 0) return null;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i] ?? '';
    if (l.trim() !== '' && !/^\s/.test(l)) return l.trim();
  }
  return null;
}

function uniqueTail(lines: string[]): string[] {
  const seen = new Set<string>();
  const out = lines.filter((l) => !seen.has(l) && seen.add(l));
  return out.slice(-MAX_REASON_LINES);
}

/**
 * Why an install (or update) job failed: its ERROR lines and last exception;
 * else the error its last line names (`Job 'install' failed with error: …`).
 */
export function jobFailureReason(logs: readonly string[]): string[] {
  const lines = logs.map(plainLine);
  const picked = lines.map((l) => l.trim()).filter((l) => /^error:/i.test(l));
  const exception = lastException(lines);
  if (exception) picked.push(exception);
  if (picked.length > 0) return uniqueTail(picked);
  const last = lines[lines.length - 1] ?? '';
  const own = /^Job '[^']*' failed with error: (.*)$/.exec(last)?.[1];
  return [own ?? (last || 'no log')];
}

/**
 * Why an app crashed, from current-app-status's `error` (`Process exited with
 * code 1\n<its last stderr lines>`): the exception's line, else the last line
 * it wrote, else the exit line itself.
 */
export function crashReason(error: string | null): string {
  if (!error) return 'no error message';
  const lines = error.split('\n').map(plainLine);
  const exception = lastException(lines);
  if (exception) return exception;
  const written = lines.slice(1).filter((l) => l.trim() !== '');
  return written[written.length - 1]?.trim() ?? lines[0] ?? error;
}

/** The last lines of a log or an error text, without colours. */
export function logTail(text: string | readonly string[], n = LOG_TAIL_LINES): string[] {
  const lines = typeof text === 'string' ? text.split('\n') : [...text];
  return lines.map(plainLine).slice(-n);
}
