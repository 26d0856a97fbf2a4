import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { packagePath } from '../../lib/paths.js';
import { PAGE_FILE_HEADERS, isPageFilePath } from '../../lib/page-assets.js';

// The dashboard's scripts and stylesheet (`GET /dashboard/<file>`), served by
// @fastify/static, which keeps every path inside the folder; the page itself
// is `GET /` (routes/daemon.ts). Plain files, no build step. A missing file,
// a folder or a path that is not a plain file name gets the daemon's 404.

export const dashboardRoot: string = packagePath('runtime', 'daemon', 'dashboard');

export function dashboardRoutes(app: FastifyInstance, root: string = dashboardRoot): void {
  void app.register(fastifyStatic, {
    root,
    prefix: '/dashboard/',
    decorateReply: false,
    index: false,
    list: false,
    redirect: false,
    cacheControl: false,
    allowedPath: (path) => isPageFilePath(path),
    setHeaders: (res) => {
      for (const [name, value] of Object.entries(PAGE_FILE_HEADERS)) res.setHeader(name, value);
    },
  });
}
