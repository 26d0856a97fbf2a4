import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { packagePath } from '../lib/paths.js';
import { validator } from '../lib/validators.js';
import { SCHEMA_FILE, robotSchema } from './schema-file.js';

// The validator of robot.schema.json (lib/validators.ts): the code the build
// generated for it (schema/compile-validator.mjs) when that was made from the
// schema as it is now, else ajv compiling the schema (a source checkout not
// built since the schema changed).

export const ROBOT_SCHEMA_ID = 'https://robotctl.dev/schema/robot.schema.json';
export const STANDALONE_FILE = packagePath('dist', 'schema', 'robot-validator.cjs');

type Standalone = ValidateFunction & { schemaText?: string };

export function robotValidator(): ValidateFunction {
  return validator(ROBOT_SCHEMA_ID, robotSchema, standalone);
}

/** The build's validator if it matches the schema file; undefined otherwise. */
export function standalone(): ValidateFunction | undefined {
  let generated: Standalone;
  try {
    generated = createRequire(import.meta.url)(STANDALONE_FILE) as Standalone;
  } catch {
    return undefined;
  }
  return generated.schemaText === readFileSync(SCHEMA_FILE, 'utf8') ? generated : undefined;
}
