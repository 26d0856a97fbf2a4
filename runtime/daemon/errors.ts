import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DAEMON_MESSAGES } from '../../lib/wire/daemon-update.js';

// The daemon's one error registry: every error leaves as JSON {"detail": …}
// with the real daemon's status and message (spec §1-§6). Validation errors
// keep FastAPI's 422 shape {"detail":[{type,loc,msg,input}]}.

export class HttpError extends Error {
  constructor(readonly statusCode: number, readonly detail: string) {
    super(detail);
    this.name = 'HttpError';
  }
}

/**
 * An uncaught exception in the real daemon: FastAPI answers 500 with the
 * plain-text body `Internal Server Error` and only its log says why (spec §9
 * Names: a start of an app no entry point names). The simulator answers the
 * same, so robotctl's handling of it is tested; the reason goes to the log.
 */
export class PlainServerError extends Error {
  constructor(readonly logLine: string) {
    super(logLine);
    this.name = 'PlainServerError';
  }
}

export const Errors = {
  appAlreadyRunning: () => new HttpError(400, 'An app is already running'),
  noAppRunning: () => new HttpError(400, 'No app is currently running'),
  unknownApp: (name: string) => new PlainServerError(`No entry point found for app '${name}'`),
  notInstalled: (name: string) => new HttpError(400, `App '${name}' is not installed`),
  notInstallable: (kind: string) => new HttpError(400, `source_kind '${kind}' is not installable via the API`),
  jobNotFound: () => new HttpError(404, 'Job ID not found'),
  daemonBusy: () => new HttpError(409, 'Daemon is busy.'),
  backendNotRunning: () => new HttpError(503, 'Backend not running'),
  moveNotFound: (uuid: string) => new HttpError(404, `Move with UUID ${uuid} not found`),
  badRequest: (msg: string) => new HttpError(400, msg),
  notFound: () => new HttpError(404, 'Not Found'),
  // Identity and updates (spec §9; routes/identity.ts, routes/update.ts)
  invalidRobotName: () => new HttpError(422, DAEMON_MESSAGES.invalidRobotName),
  updateInProgress: () => new HttpError(400, DAEMON_MESSAGES.updateInProgress),
  updateAlreadyInProgress: () => new HttpError(400, DAEMON_MESSAGES.updateAlreadyInProgress),
  noUpdateAvailable: () => new HttpError(400, DAEMON_MESSAGES.noUpdateAvailable),
  emptyRef: () => new HttpError(400, DAEMON_MESSAGES.emptyRef),
  hostNotAllowed: (message: string) => new HttpError(403, message),
  crossSite: (why: string) => new HttpError(403, `Cross-site request refused (${why}): the daemon only accepts state changes from its own pages and from non-browser clients`),
} as const;

interface AjvLikeError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

function locOf(context: string, e: AjvLikeError): (string | number)[] {
  const parts = e.instancePath.split('/').filter(Boolean).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const loc: (string | number)[] = [context === 'params' ? 'path' : context === 'querystring' ? 'query' : context, ...parts];
  if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') loc.push(e.params.missingProperty);
  return loc;
}

function pick(obj: unknown, loc: (string | number)[]): unknown {
  let v: unknown = obj;
  for (const k of loc) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

function describe(e: AjvLikeError): { type: string; msg: string } {
  switch (e.keyword) {
    case 'required': return { type: 'missing', msg: 'Field required' };
    case 'enum': return { type: 'enum', msg: `Input should be ${(e.params.allowedValues as unknown[] ?? []).map((v) => `'${String(v)}'`).join(', ')}` };
    case 'type': return { type: `${String(e.params.type)}_type`, msg: `Input should be a valid ${String(e.params.type)}` };
    case 'exclusiveMinimum': return { type: 'greater_than', msg: `Input should be greater than ${String(e.params.limit)}` };
    default: return { type: e.keyword, msg: e.message ?? 'Invalid input' };
  }
}

export function validationDetail(req: FastifyRequest, err: FastifyError): unknown[] {
  const context = err.validationContext ?? 'body';
  const source: unknown = context === 'params' ? req.params : context === 'querystring' ? req.query : context === 'headers' ? req.headers : req.body;
  // An `if` error only says which branch failed; the branch's own errors name the field.
  return (err.validation ?? []).filter((v) => v.keyword !== 'if').map((v) => {
    const e = v as unknown as AjvLikeError;
    const loc = locOf(context, e);
    return { ...describe(e), loc, input: pick(source, loc.slice(1)) ?? null };
  });
}

export function installErrorHandlers(app: FastifyInstance, log: (line: string) => void = () => {}): void {
  app.setErrorHandler((err: FastifyError | HttpError | PlainServerError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof HttpError) return reply.code(err.statusCode).send({ detail: err.detail });
    if (err instanceof PlainServerError) {
      log(`${req.method} ${req.url.split('?')[0] ?? ''}: ${err.logLine}`);
      return reply.code(500).type('text/plain; charset=utf-8').send('Internal Server Error');
    }
    if (err.validation) return reply.code(422).send({ detail: validationDetail(req, err) });
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err.statusCode === 400) {
      return reply.code(422).send({ detail: [{ type: 'json_invalid', loc: ['body'], msg: err.message, input: null }] });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return reply.code(err.statusCode).send({ detail: err.message });
    req.log.error(err);
    return reply.code(500).send({ detail: `Internal error: ${err.message}` });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ detail: 'Not Found' }));
}
