import type { StoredWebhook } from './types.js';

/**
 * The webhook object on the wire. Field order follows the client's WebhookInfo;
 * `url` is always present (null for job webhooks) because clients before
 * v0.36 read it with `["url"]`. Extra keys are ignored by every client.
 */
export function webhookView(w: StoredWebhook, jobCommand: string | null): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: w.id,
    url: w.url,
    job: w.jobSourceId ? jobSpec(w.jobSourceId, jobCommand) : null,
    watched: w.watched.map((i) => ({ type: i.type, name: i.name })),
    domains: [...w.domains],
    secret: w.secret,
    disabled: w.disabled,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
  if (w.jobSourceId) view.jobSourceId = w.jobSourceId;
  return view;
}

/** A JobSpec-shaped object (camelCase keys, as the Jobs API answers). */
function jobSpec(sourceId: string, jobCommand: string | null): Record<string, unknown> {
  return {
    id: sourceId,
    dockerImage: 'robotctl/local-job',
    command: jobCommand ? ['sh', '-c', jobCommand] : [],
    arguments: [],
    environment: {},
    secrets: [],
    flavor: 'cpu-basic',
  };
}
