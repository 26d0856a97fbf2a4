import { UsageError } from '../../../lib/errors.js';
import type { Format } from '../../views/webhooks-view.js';

// Output formats of huggingface_hub's CLI (cli/_output.py), reproduced so
// scripts written against `hf webhooks` read `robotctl webhooks` the same way.

export const FORMAT_CHOICES = ['auto', 'human', 'agent', 'json', 'quiet'] as const;

// Environment variables set by AI coding agents; `auto` picks the agent format then.
const AGENT_ENV = ['AI_AGENT', 'CLAUDECODE', 'CURSOR_AGENT', 'GEMINI_CLI', 'CODEX_SANDBOX', 'OPENCODE', 'AIDER_MODEL'];

export function isAgentEnv(env: NodeJS.ProcessEnv): boolean {
  return AGENT_ENV.some((k) => Boolean(env[k]));
}

/** Only one of --format, --json and -q/--quiet may be given. */
export function checkExclusiveFormats(args: string[]): void {
  const seen: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    const flag = a.startsWith('--format') ? '--format' : a;
    if ((flag === '--format' || flag === '--json' || flag === '-q' || flag === '--quiet') && !seen.includes(flag)) seen.push(flag);
  }
  if (seen.length > 1) throw new UsageError(`'${seen[0] ?? ''}' and '${seen[1] ?? ''}' are mutually exclusive.`);
}

export function chooseFormat(opts: { format?: string; json?: boolean; quiet?: boolean }, env: NodeJS.ProcessEnv): Format {
  if (opts.json) return 'json';
  if (opts.quiet) return 'quiet';
  const f = opts.format ?? 'auto';
  if (f === 'auto') return isAgentEnv(env) ? 'agent' : 'human';
  return f as Format;
}
