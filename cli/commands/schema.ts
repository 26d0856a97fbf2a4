import type { Io } from '../../lib/io.js';
import { newCommand, parse } from '../command.js';
import { robotSchema } from '../../schema/schema-file.js';
import { EXIT } from '../exit-codes.js';

const HELP_AFTER = `
Editors use it through yaml-language-server: put this first line in robot.yaml
  # yaml-language-server: $schema=<path or URL of the saved schema>
for example: robotctl schema > robot.schema.json
`;

export async function run(args: string[], io: Io): Promise<number> {
  const cmd = newCommand('schema', io)
    .description('Print the JSON Schema of robot.yaml')
    .addHelpText('after', HELP_AFTER);
  await parse(cmd, args);
  io.out(`${JSON.stringify(robotSchema(), null, 2)}\n`);
  return EXIT.ok;
}
