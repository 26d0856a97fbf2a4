// Build step (npm run build, after tsc): robot.schema.json compiled by ajv's
// standalone code generator into dist/schema/robot-validator.cjs, with the
// options of lib/validators.ts, so that no command compiles the schema at
// start-up. The generated module carries the schema text it was made from;
// the loader (robot-validator.ts) compiles at run time instead when the
// schema has changed since the build.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, addEditorKeywords } from '../dist/lib/validators.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'schema', 'robot-validator.cjs');
const { outputsFresh } = createRequire(import.meta.url)('../bin/bundle-loader.js');
const inputs = ['schema/robot.schema.json', 'schema/compile-validator.mjs', 'dist/lib/validators.js', 'package-lock.json'];
if (outputsFresh([out], inputs.map((f) => join(root, f)))) process.exit(0);
const schemaText = readFileSync(join(root, 'schema', 'robot.schema.json'), 'utf8');
const ajv = addEditorKeywords(new Ajv({ ...AJV_OPTIONS, code: { source: true } }));
const validate = ajv.compile(JSON.parse(schemaText));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${standaloneCode.default(ajv, validate)}\nmodule.exports.schemaText = ${JSON.stringify(schemaText)};\n`);
