import type { Io } from '../../lib/io.js';
import { useColor } from '../../lib/io.js';
import type { ApplyEvent } from '../../reconciler/apply.js';
import { actionText, duration, palette, unitAddress, type Palette } from './format.js';
import { StillRunning, elapsedText, type Ticker } from '../../lib/still-running.js';

// Outcomes as they happen. Not on a terminal: one line per outcome, for
// logs and CI. On a terminal: the same lines for what finished, plus one
// status line, rewritten in place, for what is running.

export interface Progress {
  onEvent(e: ApplyEvent): void;
  /** Clear the status line before anything else is printed. */
  finish(): void;
}

export function actionLine(e: ApplyEvent, p: Palette): string | null {
  switch (e.type) {
    case 'action.done': {
      const a = e.action;
      const detail = e.performed.detail ? ` ${e.performed.detail}` : '';
      const verb = 'robot' in a ? `${actionText(a)} ${p.ok('ok')}` : p.ok(actionText(a));
      return `${unitAddress(a)}: ${verb}${detail} ${p.dim(duration(e.ms))}`;
    }
    case 'action.failed':
      return `${unitAddress(e.action)}: ${actionText(e.action)} ${p.bad('FAILED')} ${p.dim(duration(e.ms))}: ${e.error}`;
    case 'action.retrying':
      return `${unitAddress(e.action)}: ${actionText(e.action)} ${p.warn('retrying')} in ${duration(e.delayMs)} (attempt ${e.attempt}): ${e.error}`;
    case 'action.resolving':
      return `${unitAddress(e.action)}: ${actionText(e.action)}: another app is running, stopping it first`;
    case 'rollout.halted':
      return p.bad(`Rollout stopped: ${e.halt.failures} robot(s) failed, rollout.max_failures allows ${e.halt.limit}; later waves are skipped.`);
    default:
      return rolloutLine(e, p);
  }
}

/** The rollout's own lines: its id, each wave, a rollback, its outcome, its notices. */
export function rolloutLine(e: ApplyEvent, p: Palette): string | null {
  switch (e.type) {
    case 'rollout.started':
      return p.dim(`Rollout ${e.id} (${e.trigger})`);
    case 'rollout.wave':
      return p.dim(`Wave ${e.wave}: ${e.robots.join(', ')}`);
    case 'robot.rolling_back':
      return `robots.${e.robot}: ${p.warn('rolling back')}${e.actions.length > 0 ? `: ${e.actions.map((a) => actionText(a)).join(', ')}` : ''}`;
    case 'rollout.recorded':
      return `Rollout ${e.record.id}: ${e.record.outcome === 'succeeded' ? p.ok('succeeded') : p.bad(e.record.outcome.replace('_', ' '))} ${p.dim(duration(e.record.durationMs))}`;
    case 'rollout.notified':
      return e.error === null ? p.dim(`Notified: ${e.target}`) : p.warn(`Notification failed (the rollout is not affected): ${e.target}: ${e.error}`);
    default:
      return null;
  }
}

/** Every 10 s, a plain line for each action still running (terminal and CI alike). */
function stillRunning(p: Palette, print: (line: string) => void, ticker?: Ticker): StillRunning {
  return new StillRunning((what, ms) => print(`${what}: still running... ${p.dim(elapsedText(ms))}`), undefined, ticker);
}

function track(still: StillRunning, e: ApplyEvent): void {
  if (e.type === 'action.started') still.begin(e.unit, `${unitAddress(e.action)}: ${actionText(e.action)}`);
  if (e.type === 'action.done' || e.type === 'action.failed') still.end(e.unit);
}

export function createProgress(io: Io, total: number, ticker?: Ticker): Progress {
  const p = palette(useColor(io));
  if (!io.isTTY) {
    const still = stillRunning(p, (line) => io.out(`${line}\n`), ticker);
    return {
      onEvent: (e) => { track(still, e); const line = actionLine(e, p); if (line) io.out(`${line}\n`); },
      finish: () => still.close(),
    };
  }
  const running = new Map<string, string>();
  let finished = 0;
  let shown = false;
  const status = (): void => {
    const now = [...running.values()];
    const text = `[${finished}/${total}] ${now.length === 0 ? '' : `${now.slice(0, 3).join(', ')}${now.length > 3 ? ` +${now.length - 3}` : ''}…`}`;
    io.out(`\r\x1b[K${p.dim(text)}`);
    shown = true;
  };
  const clear = (): void => { if (shown) io.out('\r\x1b[K'); shown = false; };
  const still = stillRunning(p, (line) => { clear(); io.out(`${line}\n`); status(); }, ticker);
  return {
    onEvent: (e) => {
      track(still, e);
      if (e.type === 'action.started') running.set(e.unit, `${unitAddress(e.action)} ${actionText(e.action)}`);
      if (e.type === 'action.done' || e.type === 'action.failed') { running.delete(e.unit); finished += 1; }
      const line = actionLine(e, p);
      if (line) { clear(); io.out(`${line}\n`); }
      status();
    },
    finish: () => { still.close(); clear(); },
  };
}
