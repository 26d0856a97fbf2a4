import type { SealedAction, SealedPlan } from './types.js';
import { toDocument } from './plan-keys.js';
import { canonicalJson } from './hash.js';

// A saved plan is applied only when its actions are, one by one and field by
// field, the actions robotctl plans itself from the same observation and
// state: nothing in the file steers what is sent (an edited id, an appended
// delete). The first difference is named as the file spells it.

/** Fields named first when an action differs: what identifies it. */
const FIRST = ['type', 'address', 'name', 'robot', 'app', 'id'];
const SHOWN = 80;

/** Why the saved actions are not the fresh plan's, naming the first differing action; null when they are the same. */
export function planMismatch(saved: readonly SealedAction[], fresh: SealedPlan): string | null {
  const n = Math.max(saved.length, fresh.actions.length);
  for (let i = 0; i < n; i++) {
    const mine = saved[i];
    const theirs = fresh.actions[i];
    if (mine !== undefined && theirs !== undefined && canonicalJson(mine) === canonicalJson(theirs)) continue;
    if (theirs === undefined) return `action ${i + 1} (${label(mine as SealedAction)}) is not in robotctl's plan${heldHint(mine as SealedAction, fresh)}`;
    if (mine === undefined) return `robotctl's plan has an action ${i + 1} (${label(theirs)}) that the file lacks`;
    const diff = firstField(toDocument(mine), toDocument(theirs), '');
    if (diff === null) continue; // equal but for members JSON drops
    return `action ${i + 1} (${label(mine)}): ${diff.path} is ${shown(diff.mine)} in the file, robotctl plans ${shown(diff.theirs)}${heldHint(mine, fresh)}`;
  }
  return null;
}

function label(a: SealedAction): string {
  return `${a.type} ${a.address}`;
}

function heldHint(a: SealedAction, fresh: SealedPlan): string {
  if (a.type !== 'delete') return '';
  const held = fresh.heldDeletes.find((h) => h.address === a.address && h.id === a.id);
  return held ? ` (robotctl holds this delete back: ${held.reason}; apply it with --force)` : '';
}

interface FieldDiff {
  path: string;
  mine: unknown;
  theirs: unknown;
}

function firstField(mine: unknown, theirs: unknown, path: string): FieldDiff | null {
  if (canonicalJson(mine) === canonicalJson(theirs)) return null;
  if (isObject(mine) && isObject(theirs)) {
    for (const key of keyOrder(mine, theirs)) {
      const d = firstField(mine[key], theirs[key], path ? `${path}.${key}` : key);
      if (d) return d;
    }
    return null;
  }
  if (Array.isArray(mine) && Array.isArray(theirs)) {
    for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
      const d = firstField(mine[i], theirs[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  return { path, mine, theirs };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function keyOrder(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const first = FIRST.filter((k) => keys.has(k));
  return [...first, ...[...keys].filter((k) => !FIRST.includes(k)).sort()];
}

function shown(v: unknown): string {
  if (v === undefined) return 'absent';
  const text = JSON.stringify(v);
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text;
}
