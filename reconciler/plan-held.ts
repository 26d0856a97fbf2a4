import type { StateFile } from '../state/types.js';
import { heldRevision } from '../state/rollouts.js';
import type { HeldBack } from './types.js';
import { suggested, type CommandLine } from '../lib/command-line.js';

// Revisions held back after a failed rollout (state/rollouts.ts): the planner
// installs none of them, updates to none of them, and starts no app whose
// installed revision is one, until the Space moves on (another sha) or a
// person runs `robotctl rollout retry`. Each is told in the plan, so `diff`
// exits 2 and says why.

export type HoldCheck = (robot: string, app: string, sha: string | null) => HeldBack | null;

export function holdCheck(state: StateFile): HoldCheck {
  return (robot, app, sha) => {
    const h = heldRevision(state, app, sha);
    return h ? { robot, app, sha: h.sha, reason: h.reason, rollout: h.rollout } : null;
  };
}

/**
 * One line for people: `hello_app 3a0575e is held back on desk: rollout … failed (…); `robotctl rollout retry hello_app` tries it again`.
 * `command`: how the reader runs robotctl (the CLI's view gives it; lib/command-line.ts suggested).
 */
export function heldLine(h: Pick<HeldBack, 'app' | 'sha' | 'reason' | 'rollout'>, robots: string[], command?: CommandLine): string {
  return `${h.app} ${shortSha(h.sha)} is held back on ${robots.join(', ')}: rollout ${h.rollout} failed with it (${h.reason}); ` +
    `${suggested(command, `rollout retry ${h.app}`)} tries it again, a new revision of its Space is tried as usual`;
}

/** The holds grouped by app and revision, each with its robots. */
export function groupHeld(held: HeldBack[]): { hold: HeldBack; robots: string[] }[] {
  const groups = new Map<string, { hold: HeldBack; robots: string[] }>();
  for (const h of held) {
    const key = `${h.app}@${h.sha}`;
    const g = groups.get(key);
    if (g) g.robots.push(h.robot);
    else groups.set(key, { hold: h, robots: [h.robot] });
  }
  return [...groups.values()];
}

/** A commit sha as git shows it short (7 digits); anything else (`local-…`, a branch) as it is. */
export function shortSha(sha: string): string {
  return /^[0-9a-f]{13,}$/i.test(sha) ? sha.slice(0, 7) : sha;
}
