import { useColor, type Io } from '../../lib/io.js';
import type { RolloutLog, RolloutRecord } from '../../state/rollouts.js';
import { groupHeld, heldLine, shortSha } from '../../reconciler/plan-held.js';
import { changeEnds, changeJson } from '../../reconciler/revisions.js';
import { commandLine } from './command-line.js';
import type { CommandLine } from '../../lib/command-line.js';
import { duration, palette, type Palette } from './format.js';
import { formatTable } from './table.js';
import type { ViewType } from './view-type.js';

// `robotctl rollout history`: the last rollouts, newest first (time, trigger,
// revisions, waves, outcome, duration), each robot that did not simply
// update with its reason, then the revisions held back. Text or JSON.

export const ROLLOUT_FORMAT_VERSION = '1.0';

export interface RolloutView {
  history(log: RolloutLog, limit: number): void;
  retried(released: { app: string; sha: string }[], asked: string[]): void;
}

export function newRolloutView(type: ViewType, io: Io): RolloutView {
  if (type === 'json') {
    return {
      history: (log, limit) => io.out(`${JSON.stringify(historyJson(log, limit), null, 2)}\n`),
      retried: (released) => io.out(`${JSON.stringify({ format_version: ROLLOUT_FORMAT_VERSION, released }, null, 2)}\n`),
    };
  }
  const p = palette(useColor(io));
  return {
    history: (log, limit) => io.out(renderHistory(log, limit, p, commandLine(io))),
    retried: (released, asked) => {
      if (released.length === 0) {
        io.out(asked.length > 0 ? `No revision of ${asked.join(', ')} is held back: nothing to retry.\n` : 'No revision is held back: nothing to retry.\n');
        return;
      }
      for (const r of released) io.out(`Released ${r.app} ${shortSha(r.sha)}: the next apply or agent run installs it again.\n`);
    },
  };
}

const OUTCOME_TEXT: Record<RolloutRecord['outcome'], string> = {
  succeeded: 'succeeded', failed: 'failed', rolled_back: 'rolled back', interrupted: 'interrupted',
};

export function renderHistory(log: RolloutLog, limit: number, p: Palette = palette(false), command?: CommandLine): string {
  const shown = log.history.slice(-limit).reverse();
  if (shown.length === 0 && Object.keys(log.held).length === 0) return 'No rollout yet.\n';
  const rows = shown.map((r) => [r.id, r.startedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z'), r.trigger, revisionsText(r), wavesText(r), paint(r.outcome, p), duration(r.durationMs)]);
  const lines = [formatTable(['ROLLOUT', 'STARTED', 'TRIGGER', 'REVISIONS', 'WAVES', 'OUTCOME', 'DURATION'], rows).text, ''];
  for (const r of shown) {
    const notable = r.robots.filter((x) => x.outcome !== 'updated' && x.outcome !== 'unchanged' && x.reason !== null);
    if (notable.length === 0) continue;
    lines.push(`${r.id}:`);
    for (const x of notable) lines.push(`  ${x.name} (wave ${x.wave}): ${x.outcome.replace('_', ' ')}: ${x.reason}`);
    lines.push('');
  }
  const held = Object.entries(log.held);
  if (held.length > 0) {
    lines.push('Held back:');
    for (const g of groupHeld(held.map(([app, h]) => ({ robot: 'the fleet', app, sha: h.sha, reason: h.reason, rollout: h.rollout })))) lines.push(`  ${heldLine(g.hold, g.robots, command)}`);
    lines.push('');
  }
  return `${lines.join('\n')}`;
}

/** `hello_app 58cf875 → 3a0575e` (`new → local files` for a folder's install) per app, with the robot count when the robots started from different revisions. */
function revisionsText(r: RolloutRecord): string {
  const byApp = new Map<string, { from: Set<string>; to: Set<string> }>();
  for (const c of r.revisions) {
    const e = byApp.get(c.app) ?? { from: new Set<string>(), to: new Set<string>() };
    const ends = changeEnds(c);
    e.from.add(ends.from);
    e.to.add(ends.to);
    byApp.set(c.app, e);
  }
  if (byApp.size === 0) return '-';
  return [...byApp].map(([app, e]) => `${app} ${[...e.from].join('/')} → ${[...e.to].join('/')}`).join('; ');
}

function wavesText(r: RolloutRecord): string {
  return r.waves.length === 0 ? '-' : r.waves.map((w) => w.join(',')).join(' | ');
}

function paint(outcome: RolloutRecord['outcome'], p: Palette): string {
  const text = OUTCOME_TEXT[outcome];
  return outcome === 'succeeded' ? p.ok(text) : outcome === 'interrupted' ? p.warn(text) : p.bad(text);
}

function historyJson(log: RolloutLog, limit: number): Record<string, unknown> {
  return {
    format_version: ROLLOUT_FORMAT_VERSION,
    rollouts: log.history.slice(-limit).reverse().map((r) => ({
      id: r.id, trigger: r.trigger, started_at: r.startedAt, finished_at: r.finishedAt, duration_ms: r.durationMs,
      revisions: r.revisions.map(changeJson), waves: r.waves, outcome: r.outcome, robots: r.robots,
    })),
    held: Object.fromEntries(Object.entries(log.held).map(([app, h]) => [app, { sha: h.sha, reason: h.reason, rollout: h.rollout, at: h.at }])),
  };
}
