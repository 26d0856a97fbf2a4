// Build step (npm run build, after tsc): compile robot.schema.json with ajv's
// standalone code generator into dist/schema/robot-validator.cjs, so the CLI
// never compiles the schema at start-up (it was 65% of `robotctl validate`).
// The generated module carries the schema text it was made from; the loader
// compiles at run time instead when the schema has changed since the build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, addEditorKeywords, schemaToCompile } from '../dist/schema/ajv-options.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'schema', 'robot-validator.cjs');
const { outputsFresh } = createRequire(import.meta.url)('../bin/bundle-loader.js');
const inputs = ['schema/robot.schema.json', 'schema/compile-validator.mjs', 'dist/schema/ajv-options.js', 'package-lock.json'];
if (outputsFresh([out], inputs.map((f) => join(root, f)))) process.exit(0);
const schemaText = readFileSync(join(root, 'schema', 'robot.schema.json'), 'utf8');
const ajv = addEditorKeywords(new Ajv({ ...AJV_OPTIONS, code: { source: true } }));
const validate = ajv.compile(schemaToCompile(JSON.parse(schemaText)));
const code = `${pointerTokensOnce(appendInPlace(standaloneCode.default(ajv, validate)))}\nmodule.exports.schemaText = ${JSON.stringify(schemaText)};\n`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, code);

// With allErrors, ajv's code gathers a referenced schema's errors with
// `vErrors = vErrors.concat(child.errors)`: a copy of every error so far for
// each webhook that has one, so 50,000 webhooks with a mistake each took 22 s
// in this one line. Appending in place gives the same array, in linear time.
function appendInPlace(source) {
  return source.replace(
    /vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\1\.errors\);/g,
    (_m, fn) => `if (vErrors === null) vErrors = ${fn}.errors.slice(); else for (const e of ${fn}.errors) vErrors.push(e);`,
  );
}

// ajv escapes each key for the JSON pointer of the data it descends into with
// two regular-expression literals, evaluated for every webhook even when it
// is valid: two RegExp objects and two replace calls per webhook. The escape
// is the same; it now runs only for a key that holds `~` or `/`.
function pointerTokensOnce(source) {
  // Appended (a hoisted declaration): "use strict" must stay the module's first statement.
  const helper = '\nfunction pointerToken(k) { return k.indexOf("~") < 0 && k.indexOf("/") < 0 ? k : k.replace(/~/g, "~0").replace(/\\//g, "~1"); }';
  return source.replace(/(\w+)\.replace\(\/~\/g, "~0"\)\.replace\(\/\\\/\/g, "~1"\)/g, (_m, key) => `pointerToken(${key})`) + helper;
}
