// Wire vocabulary of the Hugging Face Hub (spec/hub-webhooks.md §1): watched
// item types, webhook domains and repo types, shared by robot.yaml's schema,
// the hub driver and the embedded hub, so none of them imports another.

export const WATCHED_TYPES = ['dataset', 'model', 'space', 'org', 'user'] as const;
export type WatchedType = (typeof WATCHED_TYPES)[number];

/** The known type that `item` (`type:name`, its colon at `colon`) starts with, as the shared constant; else undefined. */
export function watchedTypeBefore(item: string, colon: number): WatchedType | undefined {
  // A loop, not find(): no closure per call (twice per webhook when loading 50,000).
  for (let i = 0; i < WATCHED_TYPES.length; i++) {
    const t = WATCHED_TYPES[i] as WatchedType;
    if (t.length === colon && item.startsWith(t)) return t;
  }
  return undefined;
}

export const WEBHOOK_DOMAINS = ['repo', 'discussion'] as const;
export type WebhookDomain = (typeof WEBHOOK_DOMAINS)[number];

/** A watched item, always in long form once loaded (`space:alice/app` → {type, name}). */
export interface WatchedItem {
  type: WatchedType;
  name: string;
}

export type RepoType = 'model' | 'dataset' | 'space';
