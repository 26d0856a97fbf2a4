import type { Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { robotSchema } from '../../schema/schema-file.js';
import { EXIT } from '../exit-codes.js';
import { commandLine } from '../views/command-line.js';
import type { CommandLine } from '../../lib/command-line.js';

const helpAfter = (command: CommandLine): string => `
Editors use it through yaml-language-server: put this first line in robot.yaml
  # yaml-language-server: $schema=<path or URL of the saved schema>
for example: ${command('schema')} > robot.schema.json
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = newCommand('schema', io)
    .description('Print the JSON Schema of robot.yaml')
    .addHelpText('after', () => helpAfter(commandLine(io)));
  await parse(cmd, args);
  io.out(`${JSON.stringify(robotSchema(), null, 2)}\n`);
  return EXIT.ok;
}
