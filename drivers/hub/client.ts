import type { WatchedItem } from '../../lib/wire/hub.js';
import { HubError } from './errors.js';
import { HubHttp, type HttpResponse } from './http.js';
import { policyOf, type RetryClock, type RetryPolicy } from '../../lib/retry.js';
import { createOrAdopt } from './create-or-adopt.js';
import { createBody, matchesInput, parseWebhookList, unwrapWebhook, updateBody } from './wire.js';
import { repoCalls } from './repos.js';
import { discussionCalls } from './discussions.js';
import type { HubClient, HubWebhook, WebhookInput, WhoAmI } from './types.js';

export interface HubClientOptions {
  endpoint: string;
  token: string | null;
  userAgent?: string;
  /** Per request: time to first byte and between body chunks (default 30 s). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 4): at most 1 + maxRetries requests a call. */
  maxRetries?: number;
  /** First backoff delay (default 250 ms; tests use a few ms). */
  retryBaseMs?: number;
  /** The rest of the policy (lib/retry.ts); maxRetries and retryBaseMs win. */
  retry?: Partial<RetryPolicy>;
  /** Injected time for the waits between attempts (tests). */
  clock?: RetryClock;
}

function json(res: HttpResponse): unknown {
  const text = res.body.toString('utf8');
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    throw new HubError(`Unexpected answer from the hub: not JSON (status ${res.status})`, { status: res.status, retriable: false });
  }
}

const enc = encodeURIComponent;

export function createHubClient(opts: HubClientOptions): HubClient {
  const http = new HubHttp({
    endpoint: opts.endpoint, token: opts.token, userAgent: opts.userAgent, timeoutMs: opts.timeoutMs ?? 30_000,
    retry: policyOf(opts), ...(opts.clock ? { clock: opts.clock } : {}),
  });
  const hooks = '/api/settings/webhooks';
  const get = async (path: string, signal?: AbortSignal) => json(await http.send({ method: 'GET', path, idempotent: true, signal }));
  const post = async (path: string, body: unknown, idempotent: boolean, signal?: AbortSignal) =>
    json(await http.send({ method: 'POST', path, json: body, idempotent, signal }));

  const listWebhooks = async (signal?: AbortSignal): Promise<HubWebhook[]> => parseWebhookList(await get(hooks, signal));

  const createWebhook = (input: WebhookInput, signal?: AbortSignal): Promise<HubWebhook> => createOrAdopt(http, {
    create: async () => unwrapWebhook(json(await http.sendOnce({ method: 'POST', path: hooks, json: createBody(input), idempotent: false, signal }))),
    find: async () => {
      const found = parseWebhookList(json(await http.sendOnce({ method: 'GET', path: hooks, idempotent: true, signal }))).filter((h) => matchesInput(h, input));
      return found[found.length - 1] ?? null;
    },
  }, signal);

  return {
    endpoint: opts.endpoint.replace(/\/+$/, ''),
    whoami: async (signal) => {
      const body = (await get('/api/whoami-v2', signal)) as WhoAmI | null;
      if (!body || typeof body.name !== 'string') throw new HubError('Unexpected answer from the hub: whoami without name', { status: null, retriable: false });
      return body;
    },
    listWebhooks,
    getWebhook: async (id, signal) => unwrapWebhook(await get(`${hooks}/${enc(id)}`, signal)),
    createWebhook,
    updateWebhook: async (id: string, input: Partial<WebhookInput> & { watched: WatchedItem[] }, signal?: AbortSignal) =>
      unwrapWebhook(await post(`${hooks}/${enc(id)}`, updateBody(input), true, signal)),
    enableWebhook: async (id, signal) =>
      unwrapWebhook(json(await http.send({ method: 'POST', path: `${hooks}/${enc(id)}/enable`, idempotent: true, signal }))),
    disableWebhook: async (id, signal) =>
      unwrapWebhook(json(await http.send({ method: 'POST', path: `${hooks}/${enc(id)}/disable`, idempotent: true, signal }))),
    deleteWebhook: async (id, signal) => {
      await http.send({ method: 'DELETE', path: `${hooks}/${enc(id)}`, idempotent: true, signal });
    },
    ...repoCalls(http, json),
    ...discussionCalls(http, json),
    close: () => http.close(),
  };
}
