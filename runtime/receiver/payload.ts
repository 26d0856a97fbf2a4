// The delivery body the Hub POSTs to a receiver (moon-landing "ReportV3", as
// modelled by huggingface_hub's WebhookPayload). Extra fields are allowed and
// kept as they are; parsePayload is the only producer of this type.

export const WEBHOOK_ACTIONS = ['create', 'delete', 'move', 'update'] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

export const PAYLOAD_REPO_TYPES = ['dataset', 'model', 'space'] as const;
export type PayloadRepoType = (typeof PAYLOAD_REPO_TYPES)[number];

export const DISCUSSION_STATUSES = ['closed', 'draft', 'open', 'merged'] as const;
export type DiscussionStatus = (typeof DISCUSSION_STATUSES)[number];

export interface PayloadObjectId {
  id: string;
}

export interface PayloadUrl {
  web: string;
  api?: string | null;
}

export interface WebhookEvent {
  action: WebhookAction;
  /** `repo`, `repo.content`, `repo.config`, `discussion`, `discussion.comment`, or a future `a.b.c`. */
  scope: string;
}

export interface WebhookPayloadRepo {
  type: PayloadRepoType;
  /** Full repo id, e.g. `alice/hello_app`. */
  name: string;
  id: string;
  private: boolean;
  url: PayloadUrl;
  owner: PayloadObjectId;
  /** Sent only when the scope starts with `repo`. */
  headSha?: string | null;
  subdomain?: string | null;
  tags?: string[] | null;
}

export interface WebhookPayloadDiscussion {
  id: string;
  num: number;
  author: PayloadObjectId;
  url: PayloadUrl;
  title: string;
  isPullRequest: boolean;
  status: DiscussionStatus;
  changes?: { base: string; mergeCommitId?: string | null } | null;
  pinned?: boolean | null;
}

export interface WebhookPayloadComment {
  id: string;
  author: PayloadObjectId;
  hidden: boolean;
  /** Undefined when `hidden` is true. */
  content?: string | null;
  url: PayloadUrl;
}

export interface WebhookPayloadWebhook {
  id: string;
  version: 3;
}

export interface WebhookPayloadMovedTo {
  name: string;
  owner: PayloadObjectId;
}

export interface WebhookPayloadUpdatedRef {
  ref: string;
  /** null for a new ref. */
  oldSha?: string | null;
  /** null for a deleted ref. */
  newSha?: string | null;
}

export interface WebhookPayload {
  event: WebhookEvent;
  repo: WebhookPayloadRepo;
  discussion?: WebhookPayloadDiscussion | null;
  comment?: WebhookPayloadComment | null;
  webhook: WebhookPayloadWebhook;
  movedTo?: WebhookPayloadMovedTo | null;
  updatedRefs?: WebhookPayloadUpdatedRef[] | null;
  /** On `repo.config` updates: only `private` is supported, else `{}`. */
  updatedConfig?: Record<string, unknown> | null;
}
