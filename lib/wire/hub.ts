// Wire vocabulary of the Hugging Face Hub (spec/hub-webhooks.md §1): watched
// item types, webhook domains and repo types, shared by robot.yaml's schema,
// the hub driver and the embedded hub, so none of them imports another.

export const WATCHED_TYPES = ['dataset', 'model', 'space', 'org', 'user'] as const;
export type WatchedType = (typeof WATCHED_TYPES)[number];

export const WEBHOOK_DOMAINS = ['repo', 'discussion'] as const;
export type WebhookDomain = (typeof WEBHOOK_DOMAINS)[number];

/** A watched item, always in long form once loaded (`space:alice/app` → {type, name}). */
export interface WatchedItem {
  type: WatchedType;
  name: string;
}

export type RepoType = 'model' | 'dataset' | 'space';
