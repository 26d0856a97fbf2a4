import { basename, dirname, resolve } from 'node:path';
import type { Config, Diagnostic } from './types.js';
import { formatPath, parseYaml, type Finding, type Located } from './yaml-doc.js';
import { Locator } from './yaml-locate.js';
import { checkText, readConfigFile, type ReadResult } from './read-config.js';
import { substituteDocument } from './env.js';
import { schemaFindings } from './validate-schema.js';
import { ruleFindings } from './rules.js';
import { buildConfig } from './build-config.js';
import { record } from './rules-util.js';

// robot.yaml → Config, or every problem of the file at once as diagnostics
// sorted by position: YAML syntax, then ${VAR}, then schema, then rules.

export type LoadResult = { ok: true; config: Config; diagnostics: [] } | { ok: false; diagnostics: Diagnostic[] };

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
  const parsed = parseYaml(text);
  if (parsed.problems.length) return fail(label, parsed.problems);
  if (parsed.doc.contents === null) {
    return fail(label, [{ line: 1, column: 1, path: '', message: 'the file is empty: a robot.yaml starts with `version: 1`' }]);
  }
  const envFindings = substituteDocument(parsed.doc, env);
  let data: unknown;
  try {
    data = parsed.doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return fail(label, [{ line: 1, column: 1, path: '', message: `invalid YAML: ${err instanceof Error ? err.message : String(err)}` }]);
  }
  const findings = withoutShadowed([envFindings, ruleFindings(data, env), schemaFindings(data)]);
  if (findings.length) {
    const locator = new Locator(parsed);
    return fail(label, findings.map((f) => locator.locate(f)));
  }
  const root = record(data) ?? {};
  return { ok: true, config: buildConfig(root, abs, dirname(abs), env), diagnostics: [] };
}

// Findings come in tiers, most specific first; a later tier's complaint about
// a value already reported (a missing ${VAR}, a bad watched item) is noise.
function withoutShadowed(tiers: Finding[][]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const tier of tiers) {
    const kept = tier.filter((f) => f.at === 'key' || !seen.has(formatPath(f.path)));
    for (const f of kept) if (f.at !== 'key') seen.add(formatPath(f.path));
    out.push(...kept);
  }
  return out;
}

function fail(file: string, located: Located[]): LoadResult {
  const unique = new Map<string, Diagnostic>();
  for (const l of located) {
    const d: Diagnostic = { file, ...l };
    unique.set(`${d.line}:${d.column}:${d.path}:${d.message}`, d);
  }
  const diagnostics = [...unique.values()].sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: false, diagnostics };
}

