import type { Action } from '../types.js';
import type { UnitOutput } from './machine.js';

// The hub's actions run in a few lanes at once: each is one round trip to the
// hub and one journal record, and done one after another a first apply of
// thousands of webhooks waits on them in turn (the records of concurrent
// lanes share one fsync: state/local-journal.ts). Every action of one
// webhook stays in one lane, in plan order (adopt before enable; disable,
// update, enable); webhooks are independent of each other. The lanes'
// outputs are merged back into the one hub unit, in plan order.

/** Hub requests in flight at once during an apply. */
export const HUB_LANES = 8;

/** Actions dealt to at most `n` lanes, a webhook's actions together and in order. */
export function hubLanes(actions: Action[], n = HUB_LANES): Action[][] {
  const laneOf = new Map<string, number>();
  const lanes: Action[][] = [];
  for (const a of actions) {
    let lane = laneOf.get(a.address);
    if (lane === undefined) {
      lane = laneOf.size % Math.max(1, n);
      laneOf.set(a.address, lane);
    }
    (lanes[lane] ??= []).push(a);
  }
  return lanes;
}

/** The lanes' outputs as one unit's: failed if a lane failed, stopped if one stopped; actions in plan order. */
export function mergeLanes(unit: string, planned: Action[], outputs: UnitOutput[]): UnitOutput {
  const order = new Map(planned.map((a, i) => [a, i]));
  const byPlan = (x: Action, y: Action): number => (order.get(x) ?? 0) - (order.get(y) ?? 0);
  const status = outputs.some((o) => o.status === 'failed') ? 'failed' : outputs.some((o) => o.status === 'stopped') ? 'stopped' : 'done';
  return {
    unit,
    status,
    completed: outputs.flatMap((o) => o.completed).sort(byPlan),
    failed: outputs.flatMap((o) => o.failed).sort((x, y) => byPlan(x.action, y.action)),
    notDone: outputs.flatMap((o) => o.notDone).sort(byPlan),
  };
}
