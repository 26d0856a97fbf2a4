import { WATCHED_TYPES, type WatchedItem, type WatchedType, type WebhookDomain } from '../../../lib/wire/hub.js';
import { UsageError } from '../../../lib/errors.js';

// Client-side validation with the messages of `hf webhooks` (click BadParameter, exit 2).

const VALID_TYPES = [...WATCHED_TYPES].sort().join(', ');

export function parseWatch(value: string): WatchedItem {
  const i = value.indexOf(':');
  if (i <= 0 || i === value.length - 1) {
    throw new UsageError(`Invalid value for '--watch': Expected format 'type:name' (e.g. 'model:bert-base-uncased'), got '${value}'. Valid types: ${VALID_TYPES}.`);
  }
  const type = value.slice(0, i);
  if (!(WATCHED_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`Invalid value for '--watch': Invalid type '${type}'. Valid types: ${VALID_TYPES}.`);
  }
  return { type: type as WatchedType, name: value.slice(i + 1) };
}

/** `repo`, `discussion`, and the official CLI's `discussions` (sent as `discussion`). */
export function parseDomain(value: string): WebhookDomain {
  if (value === 'repo') return 'repo';
  if (value === 'discussion' || value === 'discussions') return 'discussion';
  throw new UsageError(`Invalid value for '--domain': '${value}' is not one of 'repo', 'discussion', 'discussions'.`);
}

export function collect<T>(parse: (v: string) => T) {
  return (value: string, previous: T[] | undefined): T[] => [...(previous ?? []), parse(value)];
}

export function uniqueDomains(list: WebhookDomain[] | undefined): WebhookDomain[] | undefined {
  return list ? [...new Set(list)] : undefined;
}
