import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Receiver, ReceiverOptions, RouteHandler, WebhookHandler } from './types.js';
import { resolveSecrets } from './resolve-secrets.js';
import { secretVerifier } from './verify-secret.js';
import { endpointPath } from './endpoint-path.js';
import { DedupeCache } from './dedupe-cache.js';
import { DeliveryLog } from './delivery-log.js';
import type { DeliveryContext } from './delivery-context.js';
import { handleDelivery } from './handle-delivery.js';
import { receiverErrors } from './errors.js';
import { sendJson } from './send-json.js';
import { landingPage as defaultLandingPage } from './landing-page.js';
import { endpointPage, wantsHtml } from './endpoint-page.js';
import { readyMessages, secretMessages } from './start-messages.js';
import { errorMessage } from '../../lib/errors.js';
import { crossSiteReason } from '../../lib/cross-site.js';
import { DEFAULT_RECEIVER_PORT } from '../../lib/receiver-port.js';
import { hostGuard } from '../../lib/allowed-host.js';

const MiB = 1024 * 1024;

/** A webhook receiver: endpoints `/webhooks/<name>` and extra routes on one node:http server. */
export function createReceiver(opts: ReceiverOptions = {}): Receiver {
  const log = opts.log ?? ((line: string) => { process.stdout.write(`${line}\n`); });
  const handlers = new Map<string, WebhookHandler>();
  const routes = new Map<string, Map<string, RouteHandler>>();
  const pending = new Set<Promise<unknown>>();
  const page = opts.landingPage === undefined ? defaultLandingPage : opts.landingPage;
  const secrets = resolveSecrets(opts.secret, opts.env ?? process.env);
  const dc: DeliveryContext = {
    checkSecret: secrets.length > 0 ? secretVerifier(secrets) : null,
    maxBodyBytes: opts.maxBodyBytes ?? MiB,
    slowHandlerMs: opts.slowHandlerMs ?? 3000,
    dedupe: new DedupeCache(opts.dedupeWindowMs ?? 10 * 60_000, undefined, opts.now),
    deliveries: new DeliveryLog(opts.maxDeliveries ?? 100),
    log,
    track: (finished) => {
      pending.add(finished);
      void finished.finally(() => pending.delete(finished));
    },
  };
  const hosts = hostGuard(opts.allowedHosts);
  let server: Server | null = null;

  const dispatch = (req: IncomingMessage, res: ServerResponse): Promise<void> | void => {
    const path = pathOf(req.url);
    const handler = handlers.get(path);
    if (handler) {
      if (req.method === 'POST') return handleDelivery(req, res, path, handler, dc, (err) => internalError(res, err, log));
      if (wantsHtml(req)) return sendHtml(res, endpointPage(path));
      return sendJson(res, 405, receiverErrors.methodNotAllowed().body, { allow: 'POST' });
    }
    const byMethod = routes.get(path);
    const route = byMethod?.get(req.method ?? '');
    if (route) return route(req, res);
    if (byMethod) return sendJson(res, 405, receiverErrors.methodNotAllowed().body, { allow: [...byMethod.keys()].join(', ') });
    if (path === '/' && page && req.method === 'GET') return sendHtml(res, page([...handlers.keys()]));
    sendJson(res, 404, receiverErrors.notFound().body);
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    // The Hub reaches endpoints under whatever public name fronts this
    // machine (the secret guards them); pages and routes answer only under
    // this machine's own names (DNS rebinding, issue 29.3).
    const foreign = handlers.has(pathOf(req.url)) ? null : hosts.refusal(req.headers.host);
    if (foreign) {
      const e = receiverErrors.hostNotAllowed(foreign);
      log(`refused ${req.method ?? ''} ${pathOf(req.url)}: Host '${(req.headers.host ?? '').slice(0, 100)}' is not allowed`);
      return sendJson(res, e.status, e.body);
    }
    // A web page the user opens must not trigger deliveries or routes (issue 12.2).
    const crossSite = crossSiteReason(req.method ?? 'GET', req.headers);
    if (crossSite) {
      const e = receiverErrors.crossSite(crossSite);
      log(`refused ${req.method ?? ''} ${pathOf(req.url)}: ${e.body.error ?? ''}`);
      return sendJson(res, e.status, e.body);
    }
    try {
      const done = dispatch(req, res);
      if (done) done.catch((err: unknown) => internalError(res, err, log));
    } catch (err) {
      internalError(res, err, log);
    }
  };

  return {
    add(handler, addOpts = {}) {
      const abs = endpointPath(handler.name, addOpts.path);
      if (handlers.has(abs)) throw new Error(`Webhook ${abs} already exists.`);
      handlers.set(abs, handler);
      return abs;
    },
    route(method, path, handler) {
      const byMethod = routes.get(path) ?? new Map<string, RouteHandler>();
      byMethod.set(method, handler);
      routes.set(path, byMethod);
    },
    async start() {
      if (server) throw new Error('Receiver already started.');
      const host = opts.host ?? '127.0.0.1';
      const created = createServer(onRequest);
      const port = await listen(created, opts.port ?? DEFAULT_RECEIVER_PORT, host);
      server = created;
      const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
      for (const line of secretMessages(secrets.length > 0, opts.secretHint)) log(line);
      for (const line of readyMessages(url, [...handlers.keys()], opts.setupHint)) log(line);
      return { url, port };
    },
    async close() {
      const s = server;
      server = null;
      if (!s) return;
      await new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
    get endpoints() {
      return [...handlers.keys()];
    },
    get deliveries() {
      return dc.deliveries.list();
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

function sendHtml(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

// Never a stack trace on the wire; the message goes to the log.
function internalError(res: ServerResponse, err: unknown, log: (line: string) => void): void {
  log(`internal error: ${errorMessage(err)}`);
  if (!res.headersSent) sendJson(res, 500, receiverErrors.handlerFailed().body);
  else res.destroy();
}
