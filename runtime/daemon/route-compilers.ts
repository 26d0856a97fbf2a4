import { createRequire } from 'node:module';

// The daemon's route schemas, compiled when a request first needs one and
// once per process: one @fastify/ajv-compiler (fastify's own, with its
// default options and formats: the same coercion, defaults and error
// messages) serves every daemon of the process, and a compiled schema is
// shared by every robot whose route has the same one. Fastify's default
// gives each instance its own ajv and compiles every schema when the routes
// are added. What this saves, on bench/daemon-fleet-process.mjs's figures
// (the builds in turn, medians): `daemon --sim` ready 195 ms against 329
// (CPU 130 against 230 ms; target < 300), `--robots 100` all listening
// 2.1 s against 4.5 s. The daemon has no header schemas (a custom compiler
// gets them as written, not lowercased) and no shared `$id` schemas.

/** What fastify passes to a validator compiler (fastify's FastifyRouteSchemaDef). */
export interface RouteSchemaDef {
  schema: unknown;
  method?: string;
  url?: string;
  httpPart?: string;
  contentType?: string;
}

type AjvValidate = ((data: unknown, ctx?: unknown) => unknown) & { errors?: unknown };
type Compile<F> = (route: RouteSchemaDef) => F;
type Builder<F> = (externalSchemas: Record<string, unknown>, options: object | undefined) => Compile<F>;

// The compilers fastify itself uses (direct dependencies of robotctl, at the
// versions fastify accepts), loaded when the first schema is compiled.
const load = createRequire(import.meta.url);
const validatorBuilder = (): Builder<AjvValidate> => (load('@fastify/ajv-compiler') as () => Builder<AjvValidate>)();
const serializerBuilder = (): Builder<unknown> => (load('@fastify/fast-json-stringify-compiler') as () => Builder<unknown>)();

let ajvCompile: Compile<AjvValidate> | null = null;
const compiled = new Map<string, AjvValidate>();

function compileOnce(route: RouteSchemaDef): AjvValidate {
  const key = `${route.httpPart ?? ''} ${route.contentType ?? ''} ${JSON.stringify(route.schema)}`;
  let fn = compiled.get(key);
  if (!fn) {
    ajvCompile ??= validatorBuilder()({}, { customOptions: {} });
    fn = ajvCompile(route);
    compiled.set(key, fn);
  }
  return fn;
}

/** How many distinct route schemas this process has compiled so far. */
export function compiledSchemaCount(): number {
  return compiled.size;
}

/** A validator that compiles (or finds) the real one on its first call. */
function lazyValidator(route: RouteSchemaDef): AjvValidate {
  let real: AjvValidate | null = null;
  const validate: AjvValidate & { schemaEnv?: true } = (data, ctx) => {
    real ??= compileOnce(route);
    const result = real(data, ctx);
    validate.errors = real.errors;
    return result;
  };
  // Fastify passes the parent object (so ajv can coerce a whole querystring
  // or params object in place) only to functions that look like ajv's.
  validate.schemaEnv = true;
  return validate;
}

/** For fastify's `schemaController.compilersFactory.buildValidator`. */
export function buildSharedValidator(externalSchemas: Record<string, unknown>, options: object | undefined): Compile<AjvValidate> {
  // Shared schemas (`addSchema`) belong to one instance: fastify's own compiler, unchanged.
  if (Object.keys(externalSchemas ?? {}).length > 0) return validatorBuilder()(externalSchemas, options);
  return lazyValidator;
}

/** For `buildSerializer`: fast-json-stringify is loaded only when a route has a response schema. */
export function buildLazySerializer(externalSchemas: Record<string, unknown>, options: object | undefined): Compile<unknown> {
  let real: Compile<unknown> | null = null;
  return (route) => (real ??= serializerBuilder()(externalSchemas, options))(route);
}
