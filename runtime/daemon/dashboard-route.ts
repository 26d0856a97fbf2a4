import type { FastifyInstance } from 'fastify';
import { packagePath } from '../../lib/paths.js';
import { readStatic, staticHeaders } from '../../lib/static-files.js';
import { Errors } from './errors.js';

// The dashboard's scripts and stylesheet (`GET /dashboard/<file>`); the page
// itself is `GET /` (routes/daemon.ts). Plain files, no build step.

export const dashboardRoot: string = packagePath('runtime', 'daemon', 'dashboard');

export function dashboardRoutes(app: FastifyInstance, root: string = dashboardRoot): void {
  app.get<{ Params: { '*': string } }>('/dashboard/*', async (req, reply) => {
    const file = await readStatic(root, req.params['*']);
    if (!file) throw Errors.notFound();
    return reply.headers(staticHeaders(file)).send(file.body);
  });
}
