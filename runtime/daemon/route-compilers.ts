import { createRequire } from 'node:module';

// Route schemas compiled on first use, once per process. Fastify's default
// gives every instance its own ajv, compiles every route schema when routes
// are added, and loads ajv, ajv-formats and fast-json-stringify at start: a
// large part of the daemon's start-up CPU, paid again for each robot of
// `--robots N`. Here one @fastify/ajv-compiler (fastify's own, with its
// default options and formats: the same coercion, defaults and error
// messages) serves every daemon in the process; a schema is compiled when a
// request first needs it, and the function is shared by every robot whose
// route has the same schema. The daemon has no header schemas (a custom
// compiler gets them as written, not lowercased) and no shared `$id` schemas.

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
