import type { Ajv, Options } from 'ajv';

// The one ajv set-up for robot.schema.json, shared by the build step
// (compile-validator.mjs, which makes the standalone validator) and the
// run-time fallback in validate-schema.ts. Types only: ajv is loaded by them.

// Formats are checked by rules.ts with better messages; the schema keeps
// `format` for editors.
export const AJV_OPTIONS: Options = {
  allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true, validateFormats: false,
};

/** The *ErrorMessage keywords are VS Code / yaml-language-server ones: accepted, checked by nothing. */
export function addEditorKeywords(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}
