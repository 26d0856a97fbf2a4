import { eventDomain, type HubEvent } from './events.js';
import type { StoredWebhook } from './types.js';

/**
 * Webhooks that receive an event: enabled, watching the repo or its owner's
 * namespace, with a domain filter that admits the event (empty = all), and
 * whose owner may see the repo (private repos only reach their owner's hooks).
 */
export function matchWebhooks(event: HubEvent, webhooks: StoredWebhook[], owners: Set<string>): StoredWebhook[] {
  const domain = eventDomain(event.scope);
  const namespace = event.repo.repoId.split('/')[0] ?? '';
  return webhooks.filter((w) => {
    if (w.disabled) return false;
    if (w.domains.length > 0 && !w.domains.includes(domain)) return false;
    if (event.repo.private && !owners.has(w.owner)) return false;
    return w.watched.some((item) =>
      (item.type === event.repo.type && item.name === event.repo.repoId) ||
      ((item.type === 'user' || item.type === 'org') && item.name === namespace));
  });
}
