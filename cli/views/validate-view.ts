import { ansi, useColor, type Io } from '../../lib/io.js';
import type { LoadResult } from '../../schema/load.js';
import { redactedConfig } from '../../schema/redact.js';
import { formatDiagnostic } from '../../schema/types.js';
import { yamlLib } from '../../schema/yaml-lib.js';
import type { ViewType } from './view-type.js';

// `robotctl validate`: the diagnostics (one per line, on stderr) or the
// resolved file (--print), as text or as one JSON document on stdout.

export const VALIDATE_FORMAT_VERSION = '1.0';

export interface ValidateView {
  result(result: LoadResult, file: string, print: boolean): Promise<void>;
}

export function newValidateView(type: ViewType, io: Io): ValidateView {
  if (type === 'json') return { result: async (r, _file, print) => io.out(`${JSON.stringify(validateJson(r, print), null, 2)}\n`) };
  const color = useColor(io);
  return {
    result: async (r, file, print) => {
      if (!r.ok) for (const d of r.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
      // yaml is loaded only to print: reading a valid file does not need it.
      else if (print) io.out(yamlLib().stringify(redactedConfig(r.config)));
      else io.out(`${file}: ${color ? ansi.green('valid') : 'valid'}\n`);
    },
  };
}

function validateJson(result: LoadResult, print: boolean): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    format_version: VALIDATE_FORMAT_VERSION,
    valid: result.ok,
    diagnostics: result.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, path: d.path, message: d.message })),
  };
  if (result.ok && print) doc.config = redactedConfig(result.config);
  return doc;
}
