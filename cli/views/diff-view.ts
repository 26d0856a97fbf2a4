import { useColor, type Io } from '../../lib/io.js';
import { isWebhookAction, type Action, type Plan } from '../../reconciler/types.js';
import { palette } from './format.js';
import type { ViewType } from './view-type.js';

// `robotctl diff`: each drifted resource once, with why. Text or JSON.

export interface DiffView {
  show(p: Plan): void;
  /** Something could not be observed: drift cannot be ruled out (exit 1 follows). */
  incomplete(why: string): void;
}

export function newDiffView(type: ViewType, io: Io): DiffView {
  const incomplete = (why: string): void => io.err(`Error: ${why}; drift cannot be ruled out\n`);
  if (type === 'json') return { show: (p) => io.out(diffJson(p)), incomplete };
  const color = useColor(io);
  return { show: (p) => io.out(renderDiff(p, color)), incomplete };
}

export const DIFF_FORMAT_VERSION = '1.0';

export interface Drifted {
  address: string;
  actions: { type: Action['type']; reason: string; changes?: { field: string; before: unknown; after: unknown }[] }[];
}

export function driftedResources(p: Plan): Drifted[] {
  return byResource<Drifted['actions'][number]>(p.actions, (a) => (a.type === 'update' ? { type: a.type, reason: a.reason, changes: a.changes } : { type: a.type, reason: a.reason }));
}

interface Resource<T> {
  address: string;
  actions: T[];
}

/**
 * Each resource once, in the order of its first action, with what `item`
 * makes of each of its actions: the JSON's objects, or the text's words (no
 * object per action on the way to 10,000 lines).
 */
function byResource<T>(actions: Action[], item: (a: Action) => T): Resource<T>[] {
  const out: Resource<T>[] = [];
  // Webhooks by name (robot.yaml's keys, whose hashes V8 already has; an
  // address is a new string to hash), robot resources by address.
  const hooks = new Map<string, Resource<T>>();
  const robots = new Map<string, Resource<T>>();
  let last: Resource<T> | undefined;
  for (const a of actions) {
    // A resource's actions are usually next to each other (adopt, then enable): no lookup for those.
    let entry = last?.address === a.address ? last : undefined;
    if (!entry) {
      const webhook = isWebhookAction(a);
      const by = webhook ? hooks : robots;
      const key = webhook ? a.name : a.address;
      entry = by.get(key);
      if (!entry) {
        entry = { address: a.address, actions: [] };
        by.set(key, entry);
        out.push(entry);
      }
    }
    entry.actions.push(item(a));
    last = entry;
  }
  return out;
}

export function renderDiff(p: Plan, color: boolean): string {
  const c = palette(color);
  const { actions } = p;
  const lines: string[] = ['']; // the header, once the count is known
  // The webhooks' actions come first and each name's are adjacent (plan()
  // lists the hub's before the robots', planWebhooks a name's at once): a
  // line per run of one name, with no object, index or address comparison
  // per webhook. At 10,000 webhooks this made 8 MB of garbage, late in the
  // run where it cost a scavenge of everything the plan holds.
  let i = 0;
  while (i < actions.length) {
    const a = actions[i] as Action;
    if (!isWebhookAction(a)) break;
    let text = `  ${a.address}: ${a.type} (${a.reason})`;
    for (i += 1; i < actions.length; i += 1) {
      const next = actions[i] as Action;
      if (!isWebhookAction(next) || next.name !== a.name) break;
      text += `, ${next.type} (${next.reason})`;
    }
    lines.push(text);
  }
  for (const r of byResource(actions.slice(i), (a) => `${a.type} (${a.reason})`)) lines.push(`  ${r.address}: ${r.actions.join(', ')}`);
  const drifted = lines.length - 1;
  lines[0] = drifted === 0
    ? c.ok('No drift: the hub and robots match robot.yaml.')
    : c.warn(`Drift detected in ${drifted} resource${drifted === 1 ? '' : 's'}:`);
  if (p.unmanaged.webhooks.length + p.unmanaged.apps.length > 0) {
    lines.push('', `Not managed by this file (left alone): ${p.unmanaged.webhooks.length} webhook(s), ${p.unmanaged.apps.length} app(s).`);
  }
  return `${lines.join('\n')}\n`;
}

export function diffJson(p: Plan): string {
  const drifted = driftedResources(p);
  return `${JSON.stringify({
    format_version: DIFF_FORMAT_VERSION,
    drift: drifted.length > 0,
    complete: p.hubError === null && p.unreachable.length === 0,
    resources: drifted,
    unmanaged: p.unmanaged,
    unreachable: p.unreachable,
    hub_error: p.hubError,
  }, null, 2)}\n`;
}
