import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Io } from '../../lib/io.js';
import { UserError, errorMessage } from '../../lib/errors.js';
import type { Config } from '../../schema/types.js';
import type { StateFile } from '../../state/types.js';
import { parsePlan } from '../../reconciler/plan-file.js';
import { desiredDigest, observationDigest } from '../../reconciler/digest.js';
import { plan } from '../../reconciler/plan.js';
import { sealPlan } from '../../reconciler/seal.js';
import { planMismatch } from '../../reconciler/plan-match.js';
import type { Observation, Plan } from '../../reconciler/types.js';
import { shellWord } from '../../lib/command-line.js';
import { commandLine } from '../views/command-line.js';

// `apply --plan FILE`: a saved plan is applied only to the world it was made
// from, and only as robotctl would plan it itself. A fresh observation (and
// the file) must hash to what the plan says; then the plan is made again
// from that observation and the state read under the lock, and every action
// of the file must be that plan's, field by field. What runs is the plan
// made here: nothing in the file steers what is sent.

export interface SavedPlanInput {
  file: string;
  configFile: string;
  config: Config;
  observed: Observation;
  state: StateFile;
  /** `apply --force`: held deletes are planned (the file must have them too). */
  force: boolean;
}

export async function loadSavedPlan(io: Io, input: SavedPlanInput): Promise<Plan> {
  const { file, config, observed } = input;
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (err) {
    throw new UserError(`cannot read the plan ${file}: ${errorMessage(err)}`);
  }
  const command = commandLine(io);
  const saved = parsePlan(text, file, command);
  const again = `run \`${command(`plan -f ${shellWord(input.configFile)} --out ${shellWord(file)}`)}\` again and apply the new plan`;
  if (saved.desiredDigest !== desiredDigest(config, saved.secretSalt)) {
    throw new UserError(`the saved plan ${file} was made from a different robot.yaml (or different secrets): ${again}`);
  }
  if (saved.observedDigest !== observationDigest(observed, config, saved.secretSalt)) {
    throw new UserError(`the saved plan ${file} is stale: the hub or the robots changed since it was made (observation digest differs): ${again}`);
  }
  // allowEmpty: a plan that empties everything was allowed when it was made (`plan --allow-empty`), and it must equal this one.
  const fresh = plan(config, observed, input.state, { targets: saved.targets, allowEmpty: true, force: input.force, secretSalt: saved.secretSalt });
  const mismatch = planMismatch(saved.actions, sealPlan(fresh, config, observed));
  if (mismatch !== null) {
    throw new UserError(`the saved plan ${file} is not the plan robotctl makes from this observation and state: ${mismatch}; nothing was sent: ${again}`);
  }
  return fresh;
}
