// control_loop_stats as the daemon's status reports them, from the periods
// the control thread measured between its ticks (control-slot.ts). A late
// tick is a long period and the early-looking one after it is short: both
// count, nothing is left out or re-timed.

export interface LoopStats {
  frequency_hz: number;
  samples: number;
  period_mean_ms: number;
  period_p50_ms: number;
  period_p99_ms: number;
  jitter_p99_ms: number;
  jitter_max_ms: number;
}

export function summarizePeriods(periods: Float64Array, hz: number): LoopStats {
  const periodMs = 1000 / hz;
  const p = Array.from(periods).sort((a, b) => a - b);
  const j = p.map((v) => Math.abs(v - periodMs)).sort((a, b) => a - b);
  const n = p.length;
  const pick = (arr: number[], q: number): number => arr[Math.min(arr.length - 1, Math.floor(q * arr.length))] ?? 0;
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  return {
    frequency_hz: hz,
    samples: n,
    period_mean_ms: round(n ? p.reduce((a, b) => a + b, 0) / n : 0),
    period_p50_ms: round(pick(p, 0.5)),
    period_p99_ms: round(pick(p, 0.99)),
    jitter_p99_ms: round(pick(j, 0.99)),
    jitter_max_ms: round(j[j.length - 1] ?? 0),
  };
}
