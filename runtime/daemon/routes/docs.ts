import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import type { DaemonRoute } from '../server.js';
import { openapiDocument, websocketPaths, type OpenApiDocument } from '../openapi/document.js';
import { docsPage } from '../openapi/docs-page.js';

// `GET /openapi.json` and `GET /docs`, which the real daemon (FastAPI) serves
// too (spec §9 Docs). Its /docs is Swagger UI loaded from a CDN; this one is
// one HTML page made on the daemon from the same document, so it works with
// no network at all.

/** `routes`: the daemon's route table, complete once it is ready. */
export function docsRoutes(app: FastifyInstance, ctx: DaemonContext, routes: () => readonly DaemonRoute[]): void {
  let doc: OpenApiDocument | null = null;
  const document = (): OpenApiDocument => (doc ??= openapiDocument(routes(), ctx.release.version));
  app.get('/openapi.json', async () => document());
  let page: string | null = null;
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').send(page ??= docsPage(document(), websocketPaths(routes()))));
}
