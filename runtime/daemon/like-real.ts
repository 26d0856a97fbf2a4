import type { FastifyInstance } from 'fastify';
import type { AppInfo } from '../../lib/wire/daemon.js';

// `likeRealDaemon`: the simulator answers the few routes where the real Reachy
// Mini daemon differs from it, so tests can check that robotctl plans and
// applies correctly against a real robot (issue 11.5):
// - its status does not claim to be robotctl's simulator;
// - it refuses `source_kind: local` installs over REST;
// - its installed list carries no source and no revision;
// - a start of an app it does not know is a plain 500.

const UNKNOWN_APP = /^No entry point found for app/;

export function behaveLikeRealDaemon(app: FastifyInstance): void {
  app.addHook('preHandler', async (req, reply) => {
    const body = req.body as { source_kind?: unknown } | undefined;
    if (req.method === 'POST' && req.url === '/api/apps/install' && body?.source_kind === 'local') {
      await reply.code(400).send({ detail: 'Installing local apps is not supported over the REST API' });
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.url.split('?')[0] ?? '';
    if (typeof payload !== 'string') return payload;
    if (url === '/api/daemon/status' && reply.statusCode === 200) {
      const status = JSON.parse(payload) as Record<string, unknown>;
      delete status.robotctl_simulator;
      return JSON.stringify(status);
    }
    if (url.startsWith('/api/apps/list-available') && reply.statusCode === 200) {
      const list = JSON.parse(payload) as AppInfo[];
      return JSON.stringify(list.map((a) => ({ ...a, source_kind: 'installed', url: null, extra: {} })));
    }
    if (url.startsWith('/api/apps/start-app/') && reply.statusCode === 404 && UNKNOWN_APP.test(String((JSON.parse(payload) as { detail?: unknown }).detail))) {
      reply.code(500).type('text/plain; charset=utf-8');
      return 'Internal Server Error';
    }
    return payload;
  });
}
