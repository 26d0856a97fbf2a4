import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';

// The one place where JSON Schemas become validators: robot.yaml, saved
// plans, state files, /ws/sdk messages and hub webhook payloads are all
// checked by validators made here, by one ajv with one set of options, each
// schema compiled once and found again by its `$id`. A schema whose code ajv
// generated at build time (schema/compile-validator.mjs) is used as
// generated. ajv itself is loaded on the first compile: a command that only
// runs generated code never loads it.

/** The options of the one ajv, and of the code the build generates with it. */
export const AJV_OPTIONS: Options = {
  // robot.yaml reports every problem at once; the other readers word the first error.
  allErrors: true,
  // Errors carry the data and the schema they are about (schema/validate-schema.ts words them).
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  // robot.yaml's formats are checked by schema/rules.ts, with better messages; `format` stays for editors.
  validateFormats: false,
  // /ws/sdk messages: a oneOf chosen by the `type` field.
  discriminator: true,
};

/** Keywords of VS Code / yaml-language-server (robot.schema.json has them): accepted, checked by nothing. */
export function addEditorKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

const load = createRequire(import.meta.url);
let shared: Ajv | undefined;
const byId = new Map<string, ValidateFunction>();

function ajv(): Ajv {
  if (!shared) {
    const { Ajv: AjvClass } = load('ajv') as { Ajv: new (o: Options) => Ajv };
    shared = addEditorKeywords(new AjvClass(AJV_OPTIONS));
  }
  return shared;
}

/**
 * The validator of the schema whose `$id` is `id`, made on its first use:
 * the build's generated code when `generated` gives it, else ajv compiling
 * `schema()` (which must carry that `$id`).
 */
export function validator<T = unknown>(id: string, schema: () => object, generated?: () => ValidateFunction | undefined): ValidateFunction<T> {
  let found = byId.get(id);
  if (!found) {
    found = generated?.() ?? compiled(id, schema());
    byId.set(id, found);
  }
  return found as ValidateFunction<T>;
}

function compiled(id: string, schema: object): ValidateFunction {
  const declared = (schema as { $id?: unknown }).$id;
  if (declared !== id) throw new Error(`internal error: the schema registered as ${id} declares $id ${String(declared)}`);
  return ajv().compile(schema);
}
