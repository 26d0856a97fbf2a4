import type { DaemonRoute } from '../server.js';

// The daemon's OpenAPI document, generated from its own route table and route
// schemas (the table server.ts keeps for every route), as FastAPI generates
// the real daemon's `/openapi.json` from its routes. WebSocket routes are
// left out, as there (OpenAPI has no word for them); so are the dashboard's
// files and the two documentation routes themselves. Built once per daemon,
// on the first request.

type Schema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Schema>>;
}

/** fastify's wildcards, named as the real daemon names those path parameters (`{dataset_name:path}` there). */
const WILDCARDS: Record<string, string> = {
  '/api/kinematics/stl/*': '/api/kinematics/stl/{filename}',
  '/api/move/recorded-move-datasets/list/*': '/api/move/recorded-move-datasets/list/{dataset_name}',
  '/api/move/play/recorded-move-dataset/*': '/api/move/play/recorded-move-dataset/{dataset_name}/{move_name}',
};

const HIDDEN = [/^\/dashboard\//, /^\/openapi\.json$/, /^\/docs$/];

export function openapiPath(url: string): string {
  return WILDCARDS[url] ?? url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function properties(schema: unknown): [string, Schema][] {
  const props = (schema as { properties?: Record<string, Schema> } | undefined)?.properties;
  return Object.entries(props ?? {});
}

function required(schema: unknown): Set<string> {
  return new Set((schema as { required?: string[] } | undefined)?.required ?? []);
}

function parameters(route: DaemonRoute, path: string): Schema[] {
  const s = (route.schema ?? {}) as { params?: unknown; querystring?: unknown };
  const fromPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const pathSchemas = new Map(properties(s.params));
  const inPath = fromPath.map((name) => ({ name, in: 'path', required: true, schema: pathSchemas.get(name) ?? { type: 'string' } }));
  const must = required(s.querystring);
  const inQuery = properties(s.querystring).map(([name, schema]) => ({ name, in: 'query', required: must.has(name), schema }));
  return [...inPath, ...inQuery];
}

function operation(route: DaemonRoute, path: string): Schema {
  const s = (route.schema ?? {}) as { body?: unknown; response?: Record<string, unknown>; summary?: string };
  const params = parameters(route, path);
  const responses: Record<string, Schema> = {};
  for (const [code, schema] of Object.entries(s.response ?? {})) {
    responses[code] = { description: code === '200' ? 'Successful Response' : 'Response', content: { 'application/json': { schema } } };
  }
  if (Object.keys(responses).length === 0) responses['200'] = { description: 'Successful Response', content: { 'application/json': { schema: {} } } };
  if (s.body || params.length > 0) {
    responses['422'] = { description: 'Validation Error (FastAPI\'s shape: {"detail": [{type, loc, msg, input}]})' };
  }
  return {
    summary: s.summary ?? `${route.method} ${path}`,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(s.body ? { requestBody: { required: true, content: { 'application/json': { schema: s.body } } } } : {}),
    responses,
  };
}

export function openapiDocument(routes: readonly DaemonRoute[], version: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    if (route.websocket || route.method === 'HEAD' || route.method === 'OPTIONS' || HIDDEN.some((h) => h.test(route.url))) continue;
    const path = openapiPath(route.url);
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, path);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reachy Mini REST API',
      version,
      description: 'HTTP and WebSocket API of the Reachy Mini daemon, as robotctl\'s simulated robot serves it (generated from its route schemas). Its WebSocket routes are listed on /docs.',
    },
    paths,
  };
}

/** The WebSocket routes, which OpenAPI leaves out: /docs lists them. */
export function websocketPaths(routes: readonly DaemonRoute[]): string[] {
  return [...new Set(routes.filter((r) => r.websocket).map((r) => openapiPath(r.url)))].sort();
}
