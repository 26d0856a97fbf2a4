import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireUser, type HubContext } from '../context.js';
import { HubApiError } from '../errors.js';
import { objectId } from '../ids.js';
import { parseCreate, parseUpdate, type WebhookChanges } from '../webhook-input.js';
import { webhookView } from '../webhook-view.js';
import type { HubUser, StoredWebhook } from '../types.js';

// Webhook management API, spec §1. Webhooks belong to the user whose token
// created them; another user's id answers 404 like an unknown one.

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

function find(ctx: HubContext, user: HubUser, id: string): StoredWebhook {
  const w = ctx.store.data.webhooks.find((x) => x.id === id && x.owner === user.name);
  if (!w) throw new HubApiError('HUB_ERR_WEBHOOK_NOT_FOUND', `Webhook '${id}' not found`);
  return w;
}

function applyChanges(w: StoredWebhook, c: WebhookChanges): void {
  if (c.url !== undefined) { w.url = c.url; w.jobSourceId = null; }
  if (c.jobSourceId !== undefined) { w.jobSourceId = c.jobSourceId; w.url = null; }
  if (c.watched !== undefined) w.watched = c.watched;
  if (c.domains !== undefined) w.domains = c.domains;
  if (c.secret !== undefined) w.secret = c.secret;
  w.updatedAt = new Date().toISOString();
}

export function webhookRoutes(fastify: FastifyInstance, ctx: HubContext): void {
  const view = (w: StoredWebhook) => webhookView(w, ctx.jobCommand);
  const base = '/api/settings/webhooks';
  // Drift checks list often and change rarely: keep each owner's serialised
  // list until the next webhook write (every write goes through this file).
  const listCache = new Map<string, string>();

  fastify.get(base, async (req, reply) => {
    const user = requireUser(ctx, req);
    let body = listCache.get(user.name);
    if (body === undefined) {
      body = JSON.stringify(ctx.store.data.webhooks.filter((w) => w.owner === user.name).map(view));
      listCache.set(user.name, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });

  fastify.get(`${base}/:id`, async (req: IdRequest) => {
    const user = requireUser(ctx, req);
    return { webhook: view(find(ctx, user, req.params.id)) };
  });

  fastify.post(base, async (req) => {
    const user = requireUser(ctx, req);
    const input = parseCreate(req.body);
    const now = new Date().toISOString();
    const w: StoredWebhook = {
      id: objectId(), owner: user.name, url: null, jobSourceId: null, watched: input.watched,
      domains: [], secret: null, disabled: false, createdAt: now, updatedAt: now,
    };
    applyChanges(w, input);
    ctx.store.data.webhooks.push(w);
    listCache.clear();
    await ctx.store.save();
    return { webhook: view(w) };
  });

  fastify.post(`${base}/:id`, async (req: IdRequest) => {
    const user = requireUser(ctx, req);
    const w = find(ctx, user, req.params.id);
    applyChanges(w, parseUpdate(req.body));
    listCache.clear();
    await ctx.store.save();
    return { webhook: view(w) };
  });

  for (const [verb, disabled] of [['enable', false], ['disable', true]] as const) {
    fastify.post(`${base}/:id/${verb}`, async (req: IdRequest) => {
      const user = requireUser(ctx, req);
      const w = find(ctx, user, req.params.id);
      if (w.disabled !== disabled) {
        w.disabled = disabled;
        listCache.clear();
        w.updatedAt = new Date().toISOString();
        await ctx.store.save();
      }
      return { webhook: view(w) };
    });
  }

  fastify.delete(`${base}/:id`, async (req: IdRequest) => {
    const user = requireUser(ctx, req);
    const w = find(ctx, user, req.params.id);
    const data = ctx.store.data;
    data.webhooks = data.webhooks.filter((x) => x !== w);
    listCache.clear();
    delete data.activity[w.id];
    delete data.triggers[w.id];
    await ctx.store.save();
    return {};
  });

  // Emulator-only: the real hub shows this in its web UI "Activity" tab.
  fastify.get(`${base}/:id/activity`, async (req: IdRequest) => {
    const user = requireUser(ctx, req);
    const w = find(ctx, user, req.params.id);
    return {
      activity: ctx.store.data.activity[w.id] ?? [],
      jobRuns: ctx.store.data.jobRuns.filter((r) => r.webhookId === w.id),
    };
  });
}
