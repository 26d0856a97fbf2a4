import { basename, dirname, resolve } from 'node:path';
import type { Config, Diagnostic } from './types.js';
import type { Located } from './yaml-doc.js';
import { Locator } from './yaml-locate.js';
import { checkText, readConfigFile, type ReadResult } from './read-config.js';
import { fastRead, positionRead } from './read-paths.js';
import { buildConfig } from './build-config.js';
import { record } from './rules-util.js';
import { deprecationWarnings } from './deprecations.js';

// robot.yaml → Config, or every problem of the file at once as diagnostics
// sorted by position: YAML syntax, then ${VAR}, then schema, then rules.

/** `warnings`: the file loads, but says something the user should change (an old key name, a secret written in clear), each with its line. */
export type LoadResult = { ok: true; config: Config; diagnostics: []; warnings: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] };

export interface LoadOptions {
  /** Folder a relative `file` is resolved against (default: process.cwd()). */
  cwd?: string;
}

/** Load a robot.yaml; `file` is kept as typed for the diagnostics. Never throws for user mistakes. */
export function loadConfig(file: string, env: NodeJS.ProcessEnv, opts: LoadOptions = {}): LoadResult {
  const abs = resolve(opts.cwd ?? process.cwd(), file);
  let read: ReadResult;
  try {
    read = readConfigFile(abs);
  } catch (err) {
    return { ok: false, diagnostics: [{ file, line: 1, column: 1, path: '', message: `cannot read file: ${readError(err)}` }] };
  }
  return read.ok ? loadText(read.text, file, abs, env) : fail(file, [read.problem]);
}

/** Load from text: `fileLabel` names it in diagnostics, relative app paths resolve against `baseDir`. */
export function loadConfigText(text: string, fileLabel: string, baseDir: string, env: NodeJS.ProcessEnv): LoadResult {
  const checked = checkText(text);
  if (!checked.ok) return fail(fileLabel, [checked.problem]);
  return loadText(text, fileLabel, resolve(baseDir, basename(fileLabel)), env);
}

function readError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}

function loadText(text: string, label: string, abs: string, env: NodeJS.ProcessEnv): LoadResult {
  const fast = fastRead(text, env);
  if (fast && fast.findings.length === 0 && fast.warnings.length === 0) return loaded(fast.data, abs, env, text, label, []);
  // A problem or a warning (to place), or YAML the fast reader is not sure of: read again keeping positions.
  const read = positionRead(text, env);
  if ('problems' in read) return fail(label, read.problems);
  const locator = new Locator(read.parsed);
  if (read.findings.length === 0) return loaded(read.data, abs, env, text, label, diagnostics(label, read.warnings.map((f) => locator.locate(f))));
  return fail(label, read.findings.map((f) => locator.locate(f)));
}

function loaded(data: unknown, abs: string, env: NodeJS.ProcessEnv, text: string, label: string, placed: Diagnostic[]): LoadResult {
  const root = record(data) ?? {};
  // Before buildConfig, which consumes the document.
  const warnings = [...placed, ...deprecationWarnings(root, text, label)].sort((x, y) => x.line - y.line || x.column - y.column);
  return { ok: true, config: buildConfig(root, abs, dirname(abs), env), diagnostics: [], warnings };
}

function fail(file: string, located: Located[]): LoadResult {
  return { ok: false, diagnostics: diagnostics(file, located) };
}

/** One diagnostic per place and message, sorted by position. */
function diagnostics(file: string, located: Located[]): Diagnostic[] {
  const unique = new Map<string, Diagnostic>();
  for (const l of located) {
    const d: Diagnostic = { file, ...l };
    unique.set(`${d.line}:${d.column}:${d.path}:${d.message}`, d);
  }
  return [...unique.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

