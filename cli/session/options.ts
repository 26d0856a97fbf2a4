import type { Command } from 'commander';
import { withTokenOptions, type TokenFlags } from './token-flags.js';

// Small pieces shared by plan, apply, diff, status, import and agent.

/** The flags every command that opens a session takes. */
export interface SessionFlags extends TokenFlags {
  file: string;
  state?: string;
}

/** The options every command that opens a session (file, state, hub token) takes. */
export function withSessionOptions(cmd: Command): Command {
  cmd
    .option('-f, --file <file>', 'the robot.yaml', 'robot.yaml')
    .option('--state <backend>', "where the state is: a file path, hub:OWNER/NAME or postgres://… (default: ROBOTCTL_STATE, then robot.yaml's state:, then .robotctl/state.json beside the file)");
  return withTokenOptions(cmd);
}

/** commander collector for repeatable options. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
