// What a robot is doing in the rollout in progress, for its card:
// `updating daemon`, `reinstalling`, `starting`, `checking health (4 s of 10)`, `rolling back`
// (from the status document's `rollout`, reconciler/agent/rollout-progress.ts).
import { pill } from './dom.js';

const WORDS = {
  updating_daemon: 'updating daemon', renaming: 'renaming',
  installing: 'installing', reinstalling: 'reinstalling', removing: 'removing', stopping: 'stopping',
  starting: 'starting', rolling_back: 'rolling back',
};

function seconds(ms) {
  return Math.floor((typeof ms === 'number' ? ms : 0) / 1000);
}

/** The robot's phase as text, or null when the rollout is not working on it. */
export function phaseText(rollout, name) {
  if (!rollout || rollout.result !== 'running' || !Array.isArray(rollout.waves)) return null;
  const r = rollout.waves.flatMap((w) => w.robots ?? []).find((x) => x.name === name);
  if (!r || !r.phase) return null;
  if (r.phase === 'checking_health' && r.health) {
    return `checking health (${seconds(r.health.healthy_ms)} s of ${seconds(r.health.healthy_for_ms)})`;
  }
  return WORDS[r.phase] ?? r.phase.replace(/_/g, ' ');
}

/** A pill for the card's head, or null. */
export function phasePill(rollout, name) {
  const text = phaseText(rollout, name);
  return text ? pill(text, text === 'rolling back' ? 'drift' : 'info') : null;
}
