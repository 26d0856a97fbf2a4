import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { packagePath } from '../lib/paths.js';
import { validator } from '../lib/validators.js';
import type { SealedPlan } from './types.js';
import { PlanError } from './plan-error.js';
import { fromDocument, toDocument } from './plan-keys.js';
import { shellWord, suggested, type CommandLine } from '../lib/command-line.js';

// The JSON form of a plan: what `plan --json` prints and `plan --out` saves.
// Keys are snake_case (plan-keys.ts). Its reader refuses versions it does not
// know, then checks the shape against schema/plan-file.schema.json
// (lib/validators.ts) instead of guessing.

export const PLAN_FORMAT_VERSION = '2.1';
export const PLAN_SCHEMA_FILE = packagePath('schema', 'plan-file.schema.json');
const PLAN_SCHEMA_ID = 'https://robotctl.dev/schema/plan-file.schema.json';

/** A sealed plan (seal.ts) as its JSON document. */
export function planToJson(plan: SealedPlan): string {
  return `${JSON.stringify(toDocument({ ...plan, format_version: PLAN_FORMAT_VERSION }), null, 2)}\n`;
}

/** `command`: how the user runs robotctl, for the advice to make a new plan (lib/command-line.ts suggested). */
export function parsePlan(text: string, source = 'the plan file', command?: CommandLine): SealedPlan {
  const remake = `make a new one with ${suggested(command, 'plan --out')}`;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new PlanError(`${source} is not valid JSON: ${remake}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new PlanError(`${source} is not a robotctl plan: ${remake}`);
  }
  const version = (data as Record<string, unknown>).format_version;
  if (version !== PLAN_FORMAT_VERSION) {
    throw new PlanError(
      `${source} has format_version ${JSON.stringify(version ?? null)}, and this robotctl reads only ${PLAN_FORMAT_VERSION}: ` +
      `make a new plan with this version of robotctl (${suggested(command, `plan --out ${shellWord(source)}`)})`,
    );
  }
  const validate = validator(PLAN_SCHEMA_ID, planSchema);
  if (!validate(data)) throw new PlanError(`${source} is damaged (${describe(validate.errors ?? [])}): ${remake}`);
  const plan = fromDocument(data) as SealedPlan;
  plan.heldBack ??= []; // a plan saved before held_back existed holds back nothing
  plan.located ??= {}; // `located` and `refused` came with the robot-level actions (issue 31 B)
  plan.refused ??= [];
  plan.heldDeletes ??= []; // and deletes held back came with issue 29.1
  return plan;
}

const planSchema = (): object => JSON.parse(readFileSync(PLAN_SCHEMA_FILE, 'utf8')) as object;

function describe(errors: ErrorObject[]): string {
  const e = errors.find((x) => x.keyword !== 'if') ?? errors[0];
  if (!e) return 'unknown problem';
  const where = e.instancePath === '' ? 'the top level' : e.instancePath;
  const extra = e.keyword === 'additionalProperties' ? ` '${String((e.params as { additionalProperty?: unknown }).additionalProperty)}'` : '';
  return `${where}: ${e.message ?? e.keyword}${extra}`;
}
