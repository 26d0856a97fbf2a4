import { readFile } from 'node:fs/promises';
import { UserError, errorMessage } from '../lib/errors.js';
import { applyInPlace, copyState, type StateChange } from './journal.js';
import { STATE_VERSION, type AppRecord, type StateFile } from './types.js';
import type { RolloutLog } from './rollouts.js';
import { validRollouts } from './validate.js';

// The local state's journal, `<state>.journal`: JSON lines. The first is a
// header naming the state it continues (lineage and serial); each next one is
// the StateChange of one finished action, appended and fsynced. A line counts
// once its newline is written: an unterminated last piece (a kill in the
// middle of a write) is ignored. See state/README.md.

export const JOURNAL_VERSION = 1;

export interface JournalHeader {
  journal: typeof JOURNAL_VERSION;
  lineage: string;
  serial: number;
}

export interface JournalContent {
  header: JournalHeader;
  changes: StateChange[];
}

export function journalPath(statePath: string): string {
  return `${statePath}.journal`;
}

export function headerLine(state: StateFile): string {
  const header: JournalHeader = { journal: JOURNAL_VERSION, lineage: state.lineage, serial: state.serial };
  return `${JSON.stringify(header)}\n`;
}

/** The journal at `path`, or null when there is none (or not even a complete header: nothing was recorded). */
export async function readJournal(path: string): Promise<JournalContent | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UserError(`cannot read the state journal ${path}: ${errorMessage(err)}`);
  }
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a torn line
  const [first, ...rest] = lines;
  if (first === undefined) return null;
  const header = parseLine(first, path, 1);
  if (!isHeader(header)) throw damaged(path, 1, 'not a journal header');
  return { header, changes: rest.map((line, i) => asChange(parseLine(line, path, i + 2), path, i + 2)) };
}

/**
 * `state` (null: no state file) with the journal's changes replayed, or null
 * when the journal was already folded into it (a kill between the fold and
 * the journal's removal). Refuses a journal of another lineage, or one that
 * continues a state newer than the file.
 */
export function replayJournal(state: StateFile | null, journal: JournalContent, statePath: string, path: string): StateFile | null {
  const { header } = journal;
  const serial = state?.serial ?? 0;
  if (state && header.lineage !== state.lineage) {
    throw new UserError(
      `the state journal ${path} belongs to another lineage (${header.lineage}, not ${state.lineage} of ${statePath}); ` +
      'refusing to fold it in: put back the state file it was written for, or move the journal away (robotctl would then re-adopt identical webhooks)',
    );
  }
  if (header.serial < serial) return null;
  if (header.serial > serial) {
    const now = state ? `is at serial ${serial}` : 'is missing';
    throw new UserError(
      `the state journal ${path} continues serial ${header.serial} of the state, but ${statePath} ${now}; ` +
      'refusing to fold it in: put back the state file it continues, or move the journal away (robotctl would then re-adopt identical webhooks)',
    );
  }
  const out = state ? copyState(state) : { version: STATE_VERSION, lineage: header.lineage, serial: 0, webhooks: {}, robots: {} } satisfies StateFile;
  for (const change of journal.changes) applyInPlace(out, change);
  return out;
}

function parseLine(line: string, path: string, n: number): unknown {
  try {
    return JSON.parse(line);
  } catch (err) {
    throw damaged(path, n, errorMessage(err));
  }
}

function isHeader(v: unknown): v is JournalHeader {
  const h = v as Partial<JournalHeader> | null;
  return typeof h === 'object' && h !== null && h.journal === JOURNAL_VERSION && typeof h.lineage === 'string' && h.lineage !== '' &&
    Number.isInteger(h.serial) && (h.serial as number) >= 0;
}

const str = (v: unknown): v is string => typeof v === 'string' && v !== '';
const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

function asChange(v: unknown, path: string, n: number): StateChange {
  const c = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if ('rollouts' in c) return { rollouts: rolloutsOf(c.rollouts, path, n) };
  const r = c.record as Record<string, unknown> | null | undefined;
  const webhook = str(c.webhook) && (r === null || (typeof r === 'object' && r !== undefined && str(r.id) && str(r.specHash)));
  const app = str(c.robot) && str(c.app) && (r === null || (typeof r === 'object' && r !== undefined && strOrNull(r.source) && strOrNull(r.path) && strOrNull(r.sha)));
  if (!webhook && !app) throw damaged(path, n, 'not a webhook or app record');
  return webhook
    ? { webhook: c.webhook as string, record: r ? { id: r.id as string, specHash: r.specHash as string } : null }
    : { robot: c.robot as string, app: c.app as string, record: r ? appRecordOf(r) : null };
}

/** The rollouts' block as the state file's schema checks it (validate.ts), so a replay never holds what a read would refuse. */
function rolloutsOf(v: unknown, path: string, n: number): RolloutLog {
  const r = v as Partial<RolloutLog> | null;
  const ok = typeof r === 'object' && r !== null && Array.isArray(r.history) && typeof r.held === 'object' && r.held !== null
    && validRollouts({ version: STATE_VERSION, lineage: 'x', serial: 0, webhooks: {}, robots: {}, rollouts: r as RolloutLog });
  if (!ok) throw damaged(path, n, 'not a rollouts record');
  return r as RolloutLog;
}

function damaged(path: string, line: number, what: string): UserError {
  return new UserError(`the state journal ${path} is damaged at line ${line} (${what}); move it away to go on (robotctl would then re-adopt identical webhooks)`);
}

function appRecordOf(r: Record<string, unknown>): AppRecord {
  const record: AppRecord = { source: r.source as string | null, path: r.path as string | null, sha: r.sha as string | null };
  if (r.intent === 'install') record.intent = 'install';
  return record;
}
