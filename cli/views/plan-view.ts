import { ansi, useColor, type Io } from '../../lib/io.js';
import type { Action, Plan, RobotAction, SealedPlan, WebhookAction, WebhookView } from '../../reconciler/types.js';
import { isRobotAction, isWebhookAction, robotActionText } from '../../reconciler/types.js';
import { planToJson } from '../../reconciler/plan-file.js';
import { appWithRevisions } from '../../reconciler/revisions.js';
import { groupHeld, heldLine } from '../../reconciler/plan-held.js';
import { SENSITIVE } from '../../lib/sensitive.js';
import type { ViewType } from './view-type.js';
import { commandLine } from './command-line.js';
import { shellWord, suggested, type CommandLine } from '../../lib/command-line.js';

// `robotctl plan`: the human view (Terraform-like) or the JSON plan. Plans
// never hold a secret, and the human view prints secrets only as the markers
// the planner put there.

export interface PlanView {
  /** `seal`: the plan sealed (reconciler/seal.ts), which the JSON view prints. */
  show(p: Plan, seal: () => SealedPlan): void;
  /** `--out`: where the plan was saved and how to apply it. */
  saved(file: string, configFile: string): void;
  /** The plan could not see everything (exit 1 follows). */
  incomplete(why: string): void;
}

export function newPlanView(type: ViewType, io: Io): PlanView {
  const incomplete = (why: string): void => io.err(`Error: ${why}\n`);
  if (type === 'json') return { show: (_p, seal) => io.out(planToJson(seal())), saved: () => {}, incomplete };
  const color = useColor(io);
  const command = commandLine(io);
  return {
    show: (p) => writePlan(p, { color, command }, (text) => io.out(text)),
    saved: (file, configFile) => io.out(`\nSaved the plan to ${file}: apply it with \`${command(`apply -f ${shellWord(configFile)} --plan ${shellWord(file)}`)}\`.\n`),
    incomplete,
  };
}

export interface RenderOptions {
  color?: boolean;
  /** How the reader runs robotctl, for the commands a plan suggests (command-line.ts). */
  command?: CommandLine;
}

type Paint = (s: string) => string;
type Painter = (s: string, t: Action['type'] | 'gray') => string;
const SYMBOL: Record<Action['type'], string> = {
  create: '+', adopt: '>', update: '~', enable: '~', disable: '~', delete: '-',
  install: '+', update_app: '~', adopt_app: '>', remove: '-', start: '~', stop: '~', startup_app: '~', update_daemon: '~', rename_robot: '~',
};
const VERB: Record<WebhookAction['type'], string> = {
  create: 'created', adopt: 'adopted', update: 'updated', enable: 'enabled', disable: 'disabled', delete: 'deleted',
};

export function renderPlan(plan: Plan, opts: RenderOptions = {}): string {
  const parts: string[] = [];
  writePlan(plan, opts, (text) => parts.push(text));
  return parts.join('');
}

/** Lines handed to `write` at once: a plan of 50,000 webhooks is 300,000 lines (12 MB). */
const CHUNK_LINES = 2000;

/**
 * The human plan, handed to `write` a few thousand lines at a time (the
 * concatenation is renderPlan's text): a large plan is never one string
 * beside its lines, at the moment the process holds the most.
 */
export function writePlan(plan: Plan, opts: RenderOptions, write: (text: string) => void): void {
  const paint = painter(opts.color === true);
  let lines: string[] = [];
  const flush = (): void => {
    if (lines.length > 0) write(`${lines.join('\n')}\n`);
    lines = [];
  };
  const line = (text: string): void => {
    lines.push(text);
    if (lines.length >= CHUNK_LINES) flush();
  };
  const hooks = plan.actions.filter(isWebhookAction);
  const robots = plan.actions.filter(isRobotAction);
  if (plan.actions.length > 0) { line('robotctl will perform the following actions:'); line(''); }
  if (hooks.length > 0) {
    line('Hub webhooks:');
    const parts = lineParts(paint);
    for (let i = 0; i < hooks.length; i++) webhookLines(hooks[i] as WebhookAction, parts, line); // indexed: see planWebhooks
    line('');
  }
  for (const [robot, actions] of groupByRobot(robots)) {
    const at = plan.located[robot];
    line(at === undefined ? `Robot ${robot}:` : `Robot ${robot} (found over mDNS at ${at}):`);
    for (const a of actions) line(`  ${paint(SYMBOL[a.type], a.type)} ${robotText(a)} ${ansiGray(paint, `(${a.reason})`)}`);
    line('');
  }
  for (const text of contextLines(plan, opts.command)) line(text);
  line(summaryLine(plan));
  flush();
}

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  if (s.total === 0) {
    const blind = plan.unreachable.length > 0 || plan.hubError !== null;
    if (blind) return 'No changes for what could be observed (see above for what could not).';
    if (plan.heldDeletes.length > 0) return 'No changes but the deletes held back above.';
    return plan.heldBack.length > 0
      ? 'No changes to make, but revisions are held back (see above).'
      : 'No changes. The hub and robots match robot.yaml.';
  }
  const adopt = s.adopt > 0 ? `${s.adopt} to adopt, ` : '';
  return `Plan: ${adopt}${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.robot} robot change${s.robot === 1 ? '' : 's'}.`;
}

function webhookLines(a: WebhookAction, parts: LineParts, line: (text: string) => void): void {
  const head = parts.head(a) + a.address;
  line(a.type === 'create' ? head + parts.tail(a) : `${head} (id ${a.id})${parts.tail(a)}`);
  if (a.type === 'create') viewLines(a.desired, line);
  if (a.type === 'update') {
    for (const c of a.changes) line(`      ${c.field.padEnd(8)} ${show(c.before)} → ${show(c.after)}`);
  }
}

interface LineParts {
  /** `  > `: the painted symbol. */
  head(a: WebhookAction): string;
  /** ` will be adopted (reason)`. */
  tail(a: WebhookAction): string;
}

/**
 * A webhook line's fixed parts, made once per type (and reason): a large
 * plan's lines share a few. Each of 10,000 lines built its own, garbage that
 * came late in the run, where it cost a scavenge of everything the plan holds.
 */
function lineParts(paint: Painter): LineParts {
  const heads = new Map<WebhookAction['type'], string>();
  const tails = new Map<WebhookAction['type'], Map<string, string>>();
  return {
    head: (a) => {
      let text = heads.get(a.type);
      if (text === undefined) heads.set(a.type, (text = `  ${paint(SYMBOL[a.type], a.type)} `));
      return text;
    },
    tail: (a) => {
      let byReason = tails.get(a.type);
      if (!byReason) tails.set(a.type, (byReason = new Map()));
      let text = byReason.get(a.reason);
      if (text === undefined) byReason.set(a.reason, (text = ` will be ${VERB[a.type]} ${ansiGray(paint, `(${a.reason})`)}`));
      return text;
    },
  };
}

// The field names padded to 8, as the update lines pad theirs. Once per
// webhook to create (10,000 in a large plan): the lists, already strings,
// go to listText as they are, where show() copies unknown ones through String.
function viewLines(v: WebhookView, line: (text: string) => void): void {
  line(v.url !== null ? `      url      = ${show(v.url)}` : `      job_id   = ${show(v.jobId)}`);
  line(`      watched  = ${listText(v.watched)}`);
  line(`      domains  = ${v.domains.length === 0 ? 'all' : listText(v.domains)}`);
  line(`      secret   = ${v.hasSecret ? SENSITIVE : 'none'}`);
  line(`      enabled  = ${String(v.enabled)}`);
}

function robotText(a: RobotAction): string {
  switch (a.type) {
    case 'install': return `install ${appWithRevisions(a)}${a.name && a.name !== a.app ? ` (as ${a.name}, its entry point)` : ''} from ${a.record.source ?? a.record.path ?? '?'}`;
    case 'update_app': return `update_app ${appWithRevisions(a)}${a.cause === 'source' ? ` from ${a.record.source ?? a.record.path ?? '?'}` : ''}`;
    case 'adopt_app': return `adopt ${a.app} (its install was asked for, its outcome not recorded)`;
    case 'remove': return `remove ${a.app}`;
    case 'start': return `start ${a.app}`;
    case 'stop': return `stop ${a.app}`;
    case 'startup_app': return a.app === null ? 'startup_app: clear it (null)' : `startup_app = ${a.app}${a.name && a.name !== a.app ? ` (as ${a.name})` : ''}`;
    case 'update_daemon':
    case 'rename_robot': return robotActionText(a);
  }
}

function contextLines(plan: Plan, command?: CommandLine): string[] {
  const out: string[] = [];
  const { webhooks, apps } = plan.unmanaged;
  if (webhooks.length + apps.length > 0) {
    out.push('Left alone (not managed by this file):');
    for (const w of webhooks) out.push(`  webhook ${w.id} → ${w.url ?? '(job)'} watching ${w.watched.join(', ') || 'nothing'}`);
    for (const a of apps) out.push(`  app ${a.app} on robot ${a.robot}`);
    out.push('');
  }
  out.push(...heldDeleteLines(plan, command));
  const quiet = Object.keys(plan.located).filter((r) => !plan.actions.some((a) => 'robot' in a && a.robot === r));
  if (quiet.length > 0) out.push(`Found over mDNS by hardware id: ${quiet.map((r) => `${r} at ${plan.located[r] ?? '?'}`).join(', ')}`, '');
  if (plan.refused.length > 0) {
    out.push('Refused, nothing planned for them (not the robot robot.yaml names):');
    for (const r of plan.refused) out.push(`  ${r.robot}: ${r.reason}`);
    out.push('');
  }
  if (plan.hubError !== null) out.push(`Hub not observed, no webhook changes planned: ${plan.hubError}`, '');
  if (plan.unreachable.length > 0) out.push(`Robots not reachable, nothing planned for them: ${plan.unreachable.join(', ')}`, '');
  for (const g of groupHeld(plan.heldBack)) out.push(`Held back: ${heldLine(g.hold, g.robots, command)}`, '');
  return out;
}

/** The deletes held back (reconciler/plan-webhooks.ts), with the way to do them (plan, and apply's plan). */
function heldDeleteLines(plan: Plan, command?: CommandLine): string[] {
  if (plan.heldDeletes.length === 0) return [];
  return [
    `Not deleted, though robot.yaml no longer declares them (${suggested(command, 'apply --force')} deletes them):`,
    ...plan.heldDeletes.map((h) => `  ${h.address} (id ${h.id}): ${h.reason}`),
    '',
  ];
}

function groupByRobot(actions: RobotAction[]): Map<string, RobotAction[]> {
  const groups = new Map<string, RobotAction[]>();
  for (const a of actions) {
    const list = groups.get(a.robot);
    if (list) list.push(a);
    else groups.set(a.robot, [a]);
  }
  return groups;
}

function show(v: unknown): string {
  if (v === null || v === undefined) return 'none';
  if (Array.isArray(v)) return listText(v.map(String));
  if (typeof v === 'string' && v.startsWith('(')) return v; // markers like (sensitive) stay bare
  return JSON.stringify(v);
}

/** A list as the plan prints it: `[a, b]`. */
function listText(items: readonly string[]): string {
  return `[${items.join(', ')}]`;
}

function painter(color: boolean): Painter {
  const byType = (t: Action['type'] | 'gray'): Paint => {
    if (t === 'gray') return ansi.gray;
    const sym = SYMBOL[t];
    return sym === '+' || sym === '>' ? ansi.green : sym === '-' ? ansi.red : ansi.yellow;
  };
  return color ? (s, t) => byType(t)(s) : (s) => s;
}

function ansiGray(paint: Painter, s: string): string {
  return paint(s, 'gray');
}
