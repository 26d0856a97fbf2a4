// One reading of a duration for every place a user writes one: flags
// (--interval 30s), robot.yaml (rollout.healthy_for, state.lease). A bare
// number is seconds, as in the YAML keys' schema.

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/;
const FACTOR: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30s`, `2m`, `500ms`, `1h`, `10` (seconds) → milliseconds; undefined when it is not a duration. */
export function durationMs(v: unknown): number | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const m = DURATION.exec(String(v));
  return m ? Math.round(Number(m[1]) * (FACTOR[m[2] ?? 's'] ?? 1000)) : undefined;
}
