import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UserError, errorMessage } from '../../lib/errors.js';
import type { Config } from '../../schema/types.js';
import { parsePlan } from '../../reconciler/plan-file.js';
import { desiredDigest, observationDigest } from '../../reconciler/digest.js';
import type { Observation, Plan } from '../../reconciler/types.js';
import { shellWord } from '../../lib/command-line.js';
import { commandLine } from '../views/command-line.js';

// `apply --plan FILE`: a saved plan is applied only to the world it was made
// from. A fresh observation (and the file) must hash to what the plan says.

export async function loadSavedPlan(io: Io, file: string, configFile: string, config: Config, observed: Observation): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    throw new UserError(`cannot read the plan ${file}: ${errorMessage(err)}`);
  }
  const command = commandLine(io);
  const saved = parsePlan(text, file, command);
  const again = `run \`${command(`plan -f ${shellWord(configFile)} --out ${shellWord(file)}`)}\` again and apply the new plan`;
  if (saved.desiredDigest !== desiredDigest(config, saved.secretSalt)) {
    throw new UserError(`the saved plan ${file} was made from a different robot.yaml (or different secrets): ${again}`);
  }
  if (saved.observedDigest !== observationDigest(observed, config, saved.secretSalt)) {
    throw new UserError(`the saved plan ${file} is stale: the hub or the robots changed since it was made (observation digest differs): ${again}`);
  }
  return saved;
}
