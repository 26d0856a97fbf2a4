import { ansi, useColor, type Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { loadConfig, type LoadResult } from '../../schema/load.js';
import { redactedConfig } from '../../schema/redact.js';
import { formatDiagnostic } from '../../schema/types.js';

interface Options {
  file: string;
  json?: boolean;
  print?: boolean;
}

export const JSON_FORMAT_VERSION = '1.0';

const HELP_AFTER = `
Every problem of the file is reported at once, one per line: FILE:LINE:COLUMN: PATH: message.
--print shows the resolved configuration (defaults applied, overrides merged,
\${VAR} substituted) with every secret shown as (sensitive).
Exit codes: 0 valid, 1 invalid or unreadable, 2 usage error.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = newCommand('validate', io)
    .description('Check a robot.yaml and print its errors (or --print its resolved form)')
    .option('-f, --file <file>', 'the robot.yaml to check', 'robot.yaml')
    .option('--json', 'print a JSON document on stdout (with format_version) instead of text')
    .option('--print', 'print the resolved configuration (YAML, or JSON with --json)')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const opts = cmd.opts<Options>();
  const result = loadConfig(opts.file, io.env, { cwd: io.cwd });
  if (opts.json) io.out(`${JSON.stringify(jsonView(result, opts.print === true), null, 2)}\n`);
  else await printText(result, opts, io);
  return result.ok ? 0 : 1;
}

function jsonView(result: LoadResult, print: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    format_version: JSON_FORMAT_VERSION,
    valid: result.ok,
    diagnostics: result.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, path: d.path, message: d.message })),
  };
  if (result.ok && print) view.config = redactedConfig(result.config);
  return view;
}

async function printText(result: LoadResult, opts: Options, io: Io): Promise<void> {
  if (!result.ok) {
    for (const d of result.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
    return;
  }
  // yaml is loaded only to print: reading a valid file does not need it.
  if (opts.print) io.out((await import('yaml')).stringify(redactedConfig(result.config)));
  else io.out(`${opts.file}: ${useColor(io) ? ansi.green('valid') : 'valid'}\n`);
}
