// Lines of a long-running process's log (`robotctl agent`) start with the
// time they were written, ISO 8601 in UTC with milliseconds, so a line can be
// matched with what the hub, a robot or another agent logged at that moment.

/** `2026-01-31T09:30:00.000Z ` at the start of a stamped line. */
export const LOG_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z /;

/** Every line of `text` stamped with `now`. */
export function stampLines(text: string, now: Date = new Date()): string {
  const stamp = now.toISOString();
  return text.split('\n').map((line) => `${stamp} ${line}`).join('\n');
}

