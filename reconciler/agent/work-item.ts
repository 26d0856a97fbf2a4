import type { RunTrigger } from './status-types.js';
import type { DiscussionRef } from '../rollout-notify.js';

// What watchers, timers and deliveries put in the queue: only a key (and
// why), never a decision. The run re-reads everything and decides (level-
// based reconcile, STYLE.md convention 4).
//
//   file      reload robot.yaml, then reconcile everything
//   full      reconcile everything
//   app:NAME  reconcile the robots that have app NAME (a Space was pushed)
//   local:NAME  reinstall path app NAME where installed (its folder changed)

export type WorkKey = 'file' | 'full' | `app:${string}` | `local:${string}`;

export interface ExpectedSha {
  spaceId: string;
  sha: string;
}

export interface WorkItem {
  key: WorkKey;
  trigger: RunTrigger;
  /** For the log: what caused it, e.g. `delivery space:demo/hello_app`. */
  note: string;
  /** Space revisions deliveries announced: the run waits (briefly) until the hub shows them. */
  expect: ExpectedSha[];
  /** Discussions or pull requests the deliveries named (notify.discussion comments there). */
  discussions?: DiscussionRef[];
}

/** True when running `a` also does everything `b` asks. */
export function covers(a: WorkKey, b: WorkKey): boolean {
  if (a === b) return true;
  if (a === 'file') return b === 'full' || b.startsWith('app:');
  if (a === 'full') return b.startsWith('app:');
  return false;
}

export function appOfKey(key: WorkKey): string | null {
  const m = /^(?:app|local):(.+)$/.exec(key);
  return m ? (m[1] as string) : null;
}
