import { useColor, type Io } from '../../lib/io.js';
import { isWebhookAction, robotActionText, type Action, type Plan } from '../../reconciler/types.js';
import { palette } from './format.js';
import { revisionText } from '../../reconciler/revisions.js';
import { groupHeld, heldLine } from '../../reconciler/plan-held.js';
import { commandLine } from './command-line.js';
import type { CommandLine } from '../../lib/command-line.js';
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
  return { show: (p) => io.out(renderDiff(p, color, commandLine(io))), incomplete };
}

export const DIFF_FORMAT_VERSION = '1.0';

export interface Drifted {
  address: string;
  actions: { type: Action['type']; reason: string; changes?: { field: string; before: unknown; after: unknown }[]; from?: string | null; to?: string }[];
}

export function driftedResources(p: Plan): Drifted[] {
  const item = (a: Action): Drifted['actions'][number] => {
    if (a.type === 'update') return { type: a.type, reason: a.reason, changes: a.changes };
    if (a.type === 'update_daemon' || a.type === 'rename_robot') return { type: a.type, reason: a.reason, from: a.from, to: a.to };
    return { type: a.type, reason: a.reason };
  };
  const out: Drifted[] = [];
  const robotsFrom = webhookRuns(p.actions, (from, to) => {
    const actions: Drifted['actions'] = [];
    for (let k = from; k < to; k++) actions.push(item(p.actions[k] as Action));
    out.push({ address: (p.actions[from] as Action).address, actions });
  });
  for (const r of robotResources(p.actions, robotsFrom, item)) out.push(r);
  return out;
}

interface Resource<T> {
  address: string;
  actions: T[];
}

/**
 * Calls `run` with each webhook's actions, [from, to) in `actions`, and
 * returns where the robots' actions begin. The webhooks' actions come first
 * and each name's are adjacent (plan() lists the hub's before the robots',
 * planWebhooks a name's at once; plan-property.test.ts holds them to it), so
 * no object, index or address comparison is made per webhook: at 10,000
 * webhooks grouping them by a map made 8 MB of garbage, late in the run
 * where it cost a scavenge of everything the plan holds.
 */
function webhookRuns(actions: Action[], run: (from: number, to: number) => void): number {
  let i = 0;
  while (i < actions.length) {
    const a = actions[i] as Action;
    if (!isWebhookAction(a)) break;
    let to = i + 1;
    for (; to < actions.length; to++) {
      const next = actions[to] as Action;
      if (!isWebhookAction(next) || next.name !== a.name) break;
    }
    run(i, to);
    i = to;
  }
  return i;
}

/**
 * Each robot resource from `from` on once, in the order of its first action,
 * with what `item` makes of each of its actions (the JSON's objects, or the
 * text's words). A robot's actions may be apart (install a, install b, start a).
 */
function robotResources<T>(actions: Action[], from: number, item: (a: Action) => T): Resource<T>[] {
  const out: Resource<T>[] = [];
  const byAddress = new Map<string, Resource<T>>();
  for (let i = from; i < actions.length; i++) {
    const a = actions[i] as Action;
    let entry = byAddress.get(a.address);
    if (!entry) {
      entry = { address: a.address, actions: [] };
      byAddress.set(a.address, entry);
      out.push(entry);
    }
    entry.actions.push(item(a));
  }
  return out;
}

export function renderDiff(p: Plan, color: boolean, command?: CommandLine): string {
  const c = palette(color);
  const { actions } = p;
  const lines: string[] = ['']; // the header, once the count is known
  const words = (a: Action): string => {
    if (a.type === 'update_daemon' || a.type === 'rename_robot') return `${robotActionText(a)} (${a.reason})`;
    const rev = revisionText(a);
    return `${a.type}${rev ? ` ${rev}` : ''} (${a.reason})`;
  };
  const robotsFrom = webhookRuns(actions, (from, to) => {
    const a = actions[from] as Action;
    let text = `  ${a.address}: ${words(a)}`;
    for (let k = from + 1; k < to; k++) text += `, ${words(actions[k] as Action)}`;
    lines.push(text);
  });
  for (const r of robotResources(actions, robotsFrom, words)) lines.push(`  ${r.address}: ${r.actions.join(', ')}`);
  for (const h of p.heldDeletes) lines.push(`  ${h.address}: delete held back (${h.reason})`);
  const drifted = lines.length - 1;
  const held = groupHeld(p.heldBack);
  lines[0] = drifted === 0 && held.length === 0
    ? c.ok('No drift: the hub and robots match robot.yaml.')
    : drifted === 0
      ? c.warn('Drift: revisions are held back after a failed rollout:')
      : c.warn(`Drift detected in ${drifted} resource${drifted === 1 ? '' : 's'}:`);
  for (const g of held) lines.push(`  held back: ${heldLine(g.hold, g.robots, command)}`);
  if (p.unmanaged.webhooks.length + p.unmanaged.apps.length > 0) {
    lines.push('', `Not managed by this file (left alone): ${p.unmanaged.webhooks.length} webhook(s), ${p.unmanaged.apps.length} app(s).`);
  }
  return `${lines.join('\n')}\n`;
}

export function diffJson(p: Plan): string {
  const drifted = driftedResources(p);
  return `${JSON.stringify({
    format_version: DIFF_FORMAT_VERSION,
    drift: drifted.length > 0 || p.heldBack.length > 0 || p.heldDeletes.length > 0,
    complete: p.hubError === null && p.unreachable.length === 0 && p.refused.length === 0,
    resources: drifted,
    unmanaged: p.unmanaged,
    unreachable: p.unreachable,
    refused: p.refused,
    hub_error: p.hubError,
    held_back: p.heldBack,
    held_deletes: p.heldDeletes,
  }, null, 2)}\n`;
}
