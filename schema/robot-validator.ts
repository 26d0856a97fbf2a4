import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import { packagePath } from '../lib/paths.js';
import { SCHEMA_FILE } from './schema-file.js';
import { AJV_OPTIONS, addEditorKeywords, schemaToCompile } from './ajv-options.js';

// The compiled robot.schema.json validator: the standalone code generated at
// build time (schema/compile-validator.mjs) when it was made from the schema
// as it is now, else compiled here with ajv (a source checkout that has not
// been built since the schema changed). Loaded on first use, once.

// Not named `require`: the bundle (cli/build-bundle.mjs) turns load(STANDALONE_FILE) into a require it inlines.
const load = createRequire(import.meta.url);
export const STANDALONE_FILE = packagePath('dist', 'schema', 'robot-validator.cjs');

type Standalone = ValidateFunction & { schemaText?: string };

let cached: ValidateFunction | undefined;

export function robotValidator(): ValidateFunction {
  cached ??= standalone() ?? compileNow();
  return cached;
}

/** The build's validator if it matches the schema file; undefined otherwise. */
export function standalone(): ValidateFunction | undefined {
  let generated: Standalone;
  try {
    generated = load(STANDALONE_FILE) as Standalone;
  } catch {
    return undefined;
  }
  return generated.schemaText === readFileSync(SCHEMA_FILE, 'utf8') ? generated : undefined;
}

export function compileNow(): ValidateFunction {
  const { Ajv: AjvClass } = load('ajv') as { Ajv: new (o: typeof AJV_OPTIONS) => Ajv };
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
  return addEditorKeywords(new AjvClass(AJV_OPTIONS)).compile(schemaToCompile(schema));
}
