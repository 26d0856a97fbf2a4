import { ansi } from '../../lib/io.js';
import { isAppAction, robotActionText, type Action } from '../../reconciler/types.js';
import { appWithRevisions } from '../../reconciler/revisions.js';

// Small text helpers shared by the reconciling commands' human views.

export type Paint = (s: string) => string;

export interface Palette {
  ok: Paint;
  bad: Paint;
  warn: Paint;
  dim: Paint;
  bold: Paint;
}

export function palette(color: boolean): Palette {
  const id: Paint = (s) => s;
  return color
    ? { ok: ansi.green, bad: ansi.red, warn: ansi.yellow, dim: ansi.gray, bold: ansi.bold }
    : { ok: id, bad: id, warn: id, dim: id, bold: id };
}

/** Every line moved right by two spaces (tables under a heading). */
export function indent(text: string): string {
  return text.split('\n').map((l) => `  ${l}`).join('\n');
}

/** 120ms, 2.1s, 1m05s */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

const PAST: Record<Action['type'], string> = {
  create: 'created', adopt: 'adopted', update: 'updated', enable: 'enabled', disable: 'disabled', delete: 'deleted',
  install: 'install', update_app: 'update', adopt_app: 'adopt', remove: 'remove', start: 'start', stop: 'stop', startup_app: 'startup app',
  update_daemon: 'update daemon', rename_robot: 'rename robot',
};

/** Where an action happens, as the progress lines name it: `webhooks.NAME` or `robots.NAME`. */
export function unitAddress(a: Action): string {
  return 'robot' in a ? `robots.${a.robot}` : a.address;
}

/** `created` for webhooks, `install hello_app` or `update daemon 1.9.0 → 1.10.0` for robots. */
export function actionText(a: Action): string {
  if (!('robot' in a)) return PAST[a.type];
  if (a.type === 'startup_app') return `${PAST[a.type]} ${a.app ?? '(none)'}`;
  return isAppAction(a) ? `${PAST[a.type]} ${appWithRevisions(a)}` : robotActionText(a);
}
