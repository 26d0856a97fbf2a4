import type { Command } from 'commander';
import type { Plan } from '../../reconciler/types.js';

// Small pieces shared by plan, apply, diff, status, import and agent.

/** The options every command that opens a session (file, state, hub token) takes. */
export function withSessionOptions(cmd: Command): Command {
  return cmd
    .option('-f, --file <file>', 'the robot.yaml', 'robot.yaml')
    .option('--state <path>', 'state file (default: .robotctl/state.json beside the file)')
    .option('--token <token>', 'hub token (default: HF_TOKEN, then the token file)');
}

/** commander collector for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Why a plan cannot be trusted to be complete (hub or robots not observed), or null. */
export function blindness(p: Plan): string | null {
  const parts: string[] = [];
  if (p.hubError !== null) parts.push(`the hub could not be observed (${p.hubError})`);
  if (p.unreachable.length > 0) parts.push(`robot${p.unreachable.length === 1 ? '' : 's'} ${p.unreachable.join(', ')} could not be reached`);
  return parts.length === 0 ? null : `${parts.join('; ')}: the result is incomplete`;
}
