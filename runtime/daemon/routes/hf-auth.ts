import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { HttpError } from '../errors.js';
import { suggested } from '../../../lib/command-line.js';

// The real daemon's Hugging Face login routes, the robot-app lock and the
// private Space install. robotctl's daemon takes its hub token from its
// environment (HF_TOKEN or `robotctl auth login`), never over HTTP, so the
// routes that would store a token or run an OAuth flow answer 501 and say so.

export function hfAuthRoutes(app: FastifyInstance, ctx: DaemonContext, install: (spaceUrl: string) => { job_id: string }): void {
  // Written when refused, so a daemon nobody asks this looks nothing up.
  const refuse = (): never => { throw new HttpError(501, `robotctl daemon reads the hub token from HF_TOKEN or ${suggested(ctx.opts.command, 'auth login')}; it does not take one over HTTP`); };
  const loggedIn = (): boolean => Boolean(ctx.opts.hubToken);
  app.get('/api/hf-auth/status', async () => ({ is_logged_in: loggedIn(), username: null, source: loggedIn() ? 'environment' : null }));
  app.post('/api/hf-auth/save-token', async () => refuse());
  app.delete('/api/hf-auth/token', async () => refuse());
  app.get('/api/hf-auth/relay-status', async () => ({ enabled: false, connected: false }));
  app.post('/api/hf-auth/refresh-relay', async () => ({ enabled: false, connected: false }));
  app.get('/api/hf-auth/central-robot-status', async () => ({ registered: false }));
  app.get('/api/hf-auth/oauth/configured', async () => ({ configured: false }));
  for (const path of ['oauth/start', 'oauth/begin', 'oauth/callback', 'oauth/status/:session_id', 'oauth/device/status/:session_id']) {
    app.get(`/api/hf-auth/${path}`, async () => refuse());
  }
  app.post('/api/hf-auth/oauth/device/start', async () => refuse());
  for (const path of ['oauth/session/:session_id', 'oauth/device/session/:session_id']) {
    app.delete(`/api/hf-auth/${path}`, async () => refuse());
  }

  // One app at a time and no remote session: the lock is held by the running app, if any.
  app.get('/api/daemon/robot-app-lock-status', async () => {
    const s = ctx.apps.status();
    const held = s !== null && ['starting', 'running', 'stopping'].includes(s.state);
    return { state: held ? 'local_app' : 'free', holder_name: held ? s.info.name : null };
  });

  app.post<{ Body: { space_id: string } }>('/api/apps/install-private-space', {
    schema: { body: { type: 'object', properties: { space_id: { type: 'string', pattern: '^[^/\\s]+/[^/\\s]+$' } }, required: ['space_id'] } },
  }, async (req) => install(`${(ctx.opts.hubEndpoint ?? 'https://huggingface.co').replace(/\/+$/, '')}/spaces/${req.body.space_id}`));
}
