import type { Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { loadConfig } from '../../schema/load.js';
import { newValidateView } from '../views/validate-view.js';
import { viewType } from '../views/view-type.js';
import { validateExitCode } from '../exit-codes.js';
import { withConfigEnv } from '../session/config-env.js';
import type { LoadResult } from '../../schema/load.js';
import type { Config, Diagnostic } from '../../schema/types.js';

interface Options {
  file: string;
  json?: boolean;
  print?: boolean;
}

const HELP_AFTER = `
Every problem of the file is reported at once, one per line: FILE:LINE:COLUMN: PATH: message.
--print shows the resolved configuration (defaults applied, overrides merged,
\${VAR} substituted) with every secret shown as (sensitive).
Variables not exported are read from .robotctl/env beside the file, as plan reads them
(robotctl up keeps WEBHOOK_SECRET there).
An unset \${VAR} is only a warning here (validate needs no secrets, like
terraform validate; --print shows it as written); plan, diff and apply refuse to run without it.
Exit codes: 0 valid, 1 invalid or unreadable, 64 usage error.
`;

const UNSET = /^environment variable (\S+) is not set$/;

/** The file's problems with unset variables set apart: those are warnings here. */
function splitUnset(result: LoadResult): { result: LoadResult; warnings: Diagnostic[] } {
  if (result.ok) return { result, warnings: [] };
  const warnings = result.diagnostics.filter((d) => UNSET.test(d.message));
  if (warnings.length !== result.diagnostics.length) return { result, warnings: [] };
  return { result: { ok: false, diagnostics: [] }, warnings };
}

/**
 * The resolved file for --print when only variables are unset: each left as
 * its reference (`${NAME}`), which a secret field shows as (sensitive) anyway.
 * Null when the file is not valid that way (a reference inside a URL).
 */
function withReferences(file: string, io: Io, warnings: Diagnostic[]): Config | null {
  const env: NodeJS.ProcessEnv = { ...io.env };
  for (const w of warnings) {
    const name = UNSET.exec(w.message)?.[1];
    if (name) env[name] = `\${${name}}`;
  }
  const again = loadConfig(file, env, { cwd: io.cwd });
  return again.ok ? again.config : null;
}

export async function run(args: string[], outer: Io): Promise<number> {
  const cmd = newCommand('validate', outer)
    .description('Check a robot.yaml and print its errors (or --print its resolved form)')
    .option('-f, --file <file>', 'the robot.yaml to check', 'robot.yaml')
    .option('--json', 'print a JSON document on stdout (with format_version) instead of text')
    .option('--print', 'print the resolved configuration (YAML, or JSON with --json)')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  const o = cmd.opts<Options>();
  const io = withConfigEnv(outer, o.file);
  const print = o.print === true;
  const loaded = loadConfig(o.file, io.env, { cwd: io.cwd });
  const { result, warnings } = splitUnset(loaded);
  const view = newValidateView(viewType(o), io);
  if (warnings.length === 0) {
    await view.result(result, o.file, print);
    return validateExitCode(result.ok);
  }
  const resolved = print ? withReferences(o.file, io, warnings) : null;
  if (print && resolved === null) {
    await view.result(loaded, o.file, print);
    return validateExitCode(false);
  }
  await view.unset(o.file, warnings, resolved);
  return validateExitCode(true);
}
