import { stringify } from 'yaml';
import { ansi, useColor, type Io } from '../../lib/io.js';
import type { LoadResult } from '../../schema/load.js';
import { redactedConfig } from '../../schema/redact.js';
import { formatDiagnostic, type Config, type Diagnostic } from '../../schema/types.js';
import type { ViewType } from './view-type.js';

// `robotctl validate`: the diagnostics (one per line, on stderr) or the
// resolved file (--print), as text or as one JSON document on stdout.

export const VALIDATE_FORMAT_VERSION = '1.0';

export interface ValidateView {
  result(result: LoadResult, file: string, print: boolean): Promise<void>;
  /** A file valid but for unset variables (validate needs no secrets); `resolved`: the form --print shows. */
  unset(file: string, warnings: Diagnostic[], resolved: Config | null): Promise<void>;
}

export function newValidateView(type: ViewType, io: Io): ValidateView {
  if (type === 'json') {
    return {
      result: async (r, _file, print) => io.out(`${JSON.stringify(validateJson(r, print), null, 2)}\n`),
      unset: async (_file, warnings, resolved) => io.out(`${JSON.stringify({
        format_version: VALIDATE_FORMAT_VERSION, valid: true, diagnostics: [], warnings: warnings.map(diagnosticJson),
        ...(resolved ? { config: redactedConfig(resolved) } : {}),
      }, null, 2)}\n`),
    };
  }
  const color = useColor(io);
  const valid = color ? ansi.green('valid') : 'valid';
  return {
    result: async (r, file, print) => {
      if (r.ok) for (const w of r.warnings) io.err(`Warning: ${formatDiagnostic(w)}\n`);
      if (!r.ok) for (const d of r.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
      else if (print) io.out(stringify(redactedConfig(r.config)));
      else io.out(`${file}: ${valid}\n`);
    },
    unset: async (file, warnings, resolved) => {
      for (const d of warnings) io.err(`${formatDiagnostic(d)} (a warning here; plan, diff and apply need it)\n`);
      if (resolved) io.out(stringify(redactedConfig(resolved)));
      else io.out(`${file}: ${valid} (${warnings.length} unset variable${warnings.length === 1 ? '' : 's'})\n`);
    },
  };
}

function validateJson(result: LoadResult, print: boolean): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    format_version: VALIDATE_FORMAT_VERSION,
    valid: result.ok,
    diagnostics: result.diagnostics.map(diagnosticJson),
  };
  if (result.ok && result.warnings.length > 0) doc.warnings = result.warnings.map((d) => ({ file: d.file, line: d.line, column: d.column, path: d.path, message: d.message }));
  if (result.ok && print) doc.config = redactedConfig(result.config);
  return doc;
}

function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  return { file: d.file, line: d.line, column: d.column, path: d.path, message: d.message };
}
