import type { Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { loadConfig } from '../../schema/load.js';
import { newValidateView } from '../views/validate-view.js';
import { viewType } from '../views/view-type.js';
import { validateExitCode } from '../exit-codes.js';

interface Options {
  file: string;
  json?: boolean;
  print?: boolean;
}

const HELP_AFTER = `
Every problem of the file is reported at once, one per line: FILE:LINE:COLUMN: PATH: message.
--print shows the resolved configuration (defaults applied, overrides merged,
\${VAR} substituted) with every secret shown as (sensitive).
Exit codes: 0 valid, 1 invalid or unreadable, 64 usage error.
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = newCommand('validate', io)
    .description('Check a robot.yaml and print its errors (or --print its resolved form)')
    .option('-f, --file <file>', 'the robot.yaml to check', 'robot.yaml')
    .option('--json', 'print a JSON document on stdout (with format_version) instead of text')
    .option('--print', 'print the resolved configuration (YAML, or JSON with --json)')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const result = loadConfig(o.file, io.env, { cwd: io.cwd });
  await newValidateView(viewType(o), io).result(result, o.file, o.print === true);
  return validateExitCode(result.ok);
}
