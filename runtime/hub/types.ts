import type { WatchedItem, WebhookDomain } from '../../lib/wire/hub.js';
import type { RepoType } from '../../lib/wire/hub.js';

// The embedded hub's stored records. One file (hub.json) holds them all;
// file contents live apart as content-addressed blobs.

export const HUB_DATA_VERSION = 2;

export interface HubUser {
  name: string;
  /** Shown by whoami and on pages; the name when absent. */
  fullname?: string;
  /** The organisations (declared with the hub) the user belongs to: they may write in their namespaces. */
  orgs?: string[];
  /** Stable 24-hex id derived from the name, so it survives restarts. */
  id: string;
  token: string;
}

/** An organisation declared when the hub starts (`--org`): its name, full name and members. */
export interface HubOrg {
  name: string;
  id: string;
  fullname: string;
  members: string[];
}

export interface StoredWebhook {
  id: string;
  owner: string;
  url: string | null;
  jobSourceId: string | null;
  watched: WatchedItem[];
  domains: WebhookDomain[];
  /** Returned in clear to its owner, like the real hub. */
  secret: string | null;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Version 1 kept commits in hub.json; read once to move them into git. */
export interface LegacyCommit {
  oid: string;
  summary: string;
  description: string;
  author: string;
  date: string;
  /** path → blob oid (files under <data>/blobs) */
  tree: Record<string, string>;
}

export interface StoredComment {
  id: string;
  author: string;
  content: string;
  hidden: boolean;
  createdAt: string;
  /** Set by an edit. */
  updatedAt?: string;
  edited?: boolean;
}

export type DiscussionStatus = 'open' | 'closed' | 'merged' | 'draft';

export interface StoredDiscussion {
  id: string;
  num: number;
  title: string;
  author: string;
  isPullRequest: boolean;
  status: DiscussionStatus;
  createdAt: string;
  comments: StoredComment[];
  /** Status and title changes, commits and merges (comments are kept apart). */
  changes?: StoredChange[];
  /** Pull requests: the ref their commits go to, and the merge commit once merged. */
  prRef?: string;
  /** Pull requests: the branch they merge into (refs/heads/main when absent: data written before bases). */
  baseRef?: string;
  mergeCommitId?: string | null;
}

export interface StoredChange {
  id: string;
  type: 'status-change' | 'title-change' | 'commit';
  author: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface StoredRepo {
  objectId: string;
  type: RepoType;
  /** owner/name */
  repoId: string;
  creator: string;
  private: boolean;
  /** Only for a `protected` Space (its files private, as `private`); absent otherwise (data before it had none). */
  visibility?: 'protected';
  /** Access requests ('auto' or 'manual') as the Hub's settings have them; absent = not gated. */
  gated?: 'auto' | 'manual';
  sdk: string | null;
  createdAt: string;
  lastModified: string;
  /** Head of main as last seen (the bare git repo is the truth); payloads carry it. */
  headSha: string | null;
  /** Only in version-1 data: moved into git on load. */
  commits?: LegacyCommit[];
  discussions: StoredDiscussion[];
}

export type AttemptOutcome = 'delivered' | 'failed' | 'skipped' | 'job';

/** One delivery attempt, as shown by the emulator-only activity route. */
export interface DeliveryAttempt {
  eventId: string;
  webhookId: string;
  attempt: number;
  at: string;
  scope: string;
  action: string;
  outcome: AttemptOutcome;
  status: number | null;
  durationMs: number;
  error: string | null;
  payload: unknown;
}

export interface JobRun {
  id: string;
  webhookId: string;
  owner: string;
  at: string;
  /** WEBHOOK_* variables; WEBHOOK_SECRET is recorded masked. */
  env: Record<string, string>;
  command: string | null;
  exitCode: number | null;
  error: string | null;
}

export interface HubData {
  format_version: typeof HUB_DATA_VERSION;
  webhooks: StoredWebhook[];
  repos: StoredRepo[];
  activity: Record<string, DeliveryAttempt[]>;
  /** Trigger times (ms) per webhook within the last 24 h, for the rate limit. */
  triggers: Record<string, number[]>;
  jobRuns: JobRun[];
}

export function emptyData(): HubData {
  return { format_version: HUB_DATA_VERSION, webhooks: [], repos: [], activity: {}, triggers: {}, jobRuns: [] };
}
