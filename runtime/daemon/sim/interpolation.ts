// Time-scaling curves of the real daemon's goto (spec §7): s ∈ [0,1] → progress.
// cartoon overshoots below 0 and above 1 on purpose (back ease in/out).

export const INTERPOLATIONS = ['linear', 'minjerk', 'ease_in_out', 'cartoon'] as const;
export type Interpolation = (typeof INTERPOLATIONS)[number];

const C1 = 1.70158;
const C2 = C1 * 1.525;

export function linear(s: number): number {
  return s;
}

export function minjerk(s: number): number {
  return 10 * s ** 3 - 15 * s ** 4 + 6 * s ** 5;
}

export function easeInOut(s: number): number {
  return s < 0.5 ? 2 * s * s : 1 - (-2 * s + 2) ** 2 / 2;
}

export function cartoon(s: number): number {
  return s < 0.5
    ? ((2 * s) ** 2 * ((C2 + 1) * 2 * s - C2)) / 2
    : ((2 * s - 2) ** 2 * ((C2 + 1) * (s * 2 - 2) + C2) + 2) / 2;
}

const CURVES: Record<Interpolation, (s: number) => number> = {
  linear,
  minjerk,
  ease_in_out: easeInOut,
  cartoon,
};

/** Progress at time fraction s (clamped to [0,1] before the curve). */
export function progress(kind: Interpolation, s: number): number {
  return CURVES[kind](Math.max(0, Math.min(1, s)));
}
