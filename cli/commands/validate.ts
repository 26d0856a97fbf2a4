import type { Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { loadConfig } from '../../schema/load.js';
import { newValidateView } from '../views/validate-view.js';
import { viewType } from '../views/view-type.js';
import { validateExitCode } from '../exit-codes.js';
import { ansi, useColor } from '../../lib/io.js';
import type { LoadResult } from '../../schema/load.js';
import { formatDiagnostic, type Diagnostic } from '../../schema/types.js';

interface Options {
  file: string;
  json?: boolean;
  print?: boolean;
}

const HELP_AFTER = `
Every problem of the file is reported at once, one per line: FILE:LINE:COLUMN: PATH: message.
--print shows the resolved configuration (defaults applied, overrides merged,
\${VAR} substituted) with every secret shown as (sensitive).
An unset \${VAR} is only a warning here (validate needs no secrets, like
terraform validate); plan, diff and apply refuse to run without it.
Exit codes: 0 valid, 1 invalid or unreadable, 64 usage error.
`;

const UNSET = /^environment variable \S+ is not set$/;

/** The file's problems with unset variables set apart: those are warnings here (not with --print). */
function splitUnset(result: LoadResult, print: boolean): { result: LoadResult; warnings: Diagnostic[] } {
  if (result.ok || print) return { result, warnings: [] };
  const warnings = result.diagnostics.filter((d) => UNSET.test(d.message));
  if (warnings.length !== result.diagnostics.length) return { result, warnings: [] };
  return { result: { ok: false, diagnostics: [] }, warnings };
}

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = newCommand('validate', io)
    .description('Check a robot.yaml and print its errors (or --print its resolved form)')
    .option('-f, --file <file>', 'the robot.yaml to check', 'robot.yaml')
    .option('--json', 'print a JSON document on stdout (with format_version) instead of text')
    .option('--print', 'print the resolved configuration (YAML, or JSON with --json)')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const { result, warnings } = splitUnset(loadConfig(o.file, io.env, { cwd: io.cwd }), o.print === true);
  if (warnings.length === 0) {
    await newValidateView(viewType(o), io).result(result, o.file, o.print === true);
    return validateExitCode(result.ok);
  }
  if (o.json) {
    io.out(`${JSON.stringify({ format_version: '1.0', valid: true, diagnostics: [], warnings: warnings.map(diagnosticJson) }, null, 2)}\n`);
  } else {
    for (const d of warnings) io.err(`${formatDiagnostic(d)} (a warning here; plan, diff and apply need it)\n`);
    io.out(`${o.file}: ${useColor(io) ? ansi.green('valid') : 'valid'} (${warnings.length} unset variable${warnings.length === 1 ? '' : 's'})\n`);
  }
  return validateExitCode(true);
}

function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  return { file: d.file, line: d.line, column: d.column, path: d.path, message: d.message };
}
