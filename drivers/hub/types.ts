import type { RepoType, WatchedItem, WebhookDomain } from '../../lib/wire/hub.js';

// Wire shapes of the Hugging Face Hub webhook API (spec/hub-webhooks.md §1)
// and the driver interface the reconciler and CLI depend on.

/** A webhook as the hub returns it. Extra keys from the hub are dropped. */
export interface HubWebhook {
  id: string;
  /** null for job webhooks. */
  url: string | null;
  /** The job the hub runs for job webhooks (shape not fixed by the real hub). */
  job: Record<string, unknown> | null;
  /** Echoed by the embedded hub; the real hub may not return it (then undefined). */
  jobSourceId?: string | null;
  watched: WatchedItem[];
  domains: WebhookDomain[];
  /** The hub returns the secret in clear: callers must never print it. */
  secret: string | null;
  disabled: boolean;
}

/** Body of create (all required but domains/secret) and update (all optional). */
export interface WebhookInput {
  url?: string;
  jobSourceId?: string;
  watched: WatchedItem[];
  domains?: WebhookDomain[];
  secret?: string;
}

export interface WhoAmI {
  name: string;
  type: string;
  [key: string]: unknown;
}

/** An LFS file's content as the hub reports it (repo_info with files_metadata). */
export interface LfsInfo {
  sha256: string;
  size: number;
  pointerSize?: number;
}

/** A file of a repo; size, blobId and lfs only when asked for with `filesMetadata`. */
export interface RepoSibling {
  rfilename: string;
  size?: number;
  blobId?: string;
  lfs?: LfsInfo | null;
}

export interface RepoInfo {
  id: string;
  sha: string;
  private: boolean;
  siblings: RepoSibling[];
  [key: string]: unknown;
}

/**
 * A file to add comes from memory (`content`) or from a local `file`, read
 * as a stream when it goes through LFS. The hub decides which files go
 * through LFS (preupload: over 10 MiB, or tracked by its .gitattributes).
 */
export type CommitOperation =
  | { op: 'add'; path: string; content: Buffer }
  | { op: 'add'; path: string; file: string }
  | { op: 'delete'; path: string };

export interface RepoInfoOptions {
  /** A commit or branch (huggingface_hub's repo_info(revision=)). */
  revision?: string;
  /** Siblings with size, blobId and lfs (repo_info(files_metadata=True)). */
  filesMetadata?: boolean;
}

/** A discussion or pull request as get_repo_discussions lists it. */
export interface DiscussionSummary {
  num: number;
  title: string;
  /** open, closed, merged, draft. */
  status: string;
  author: string | null;
  isPullRequest: boolean;
}

export interface DiscussionFilter {
  type?: 'discussion' | 'pull_request' | 'all';
  status?: 'open' | 'closed' | 'all';
  author?: string;
}

export interface HubClient {
  readonly endpoint: string;
  whoami(signal?: AbortSignal): Promise<WhoAmI>;
  listWebhooks(signal?: AbortSignal): Promise<HubWebhook[]>;
  getWebhook(id: string, signal?: AbortSignal): Promise<HubWebhook>;
  /** Never blindly retried: an unknown outcome is resolved by listing and adopting. */
  createWebhook(input: WebhookInput, signal?: AbortSignal): Promise<HubWebhook>;
  updateWebhook(id: string, input: Partial<WebhookInput> & { watched: WatchedItem[] }, signal?: AbortSignal): Promise<HubWebhook>;
  enableWebhook(id: string, signal?: AbortSignal): Promise<HubWebhook>;
  disableWebhook(id: string, signal?: AbortSignal): Promise<HubWebhook>;
  deleteWebhook(id: string, signal?: AbortSignal): Promise<void>;

  createRepo(type: RepoType, repoId: string, opts?: { private?: boolean; spaceSdk?: string; existOk?: boolean }, signal?: AbortSignal): Promise<{ url: string }>;
  /** null when the repo (or that revision of it) does not exist. A string for `opts` is a revision. */
  repoInfo(type: RepoType, repoId: string, signal?: AbortSignal, opts?: string | RepoInfoOptions): Promise<RepoInfo | null>;
  /**
   * With `parentCommit`, the hub refuses the commit (412, or 400 on older
   * hubs: see isStaleParent) when main has moved since that commit.
   * `guard` is called before each request the commit sends (its preupload,
   * the commit, a retry): what it throws ends the commit with nothing more sent.
   */
  commit(type: RepoType, repoId: string, operations: CommitOperation[], summary: string, signal?: AbortSignal, parentCommit?: string, guard?: () => void): Promise<{ commitOid: string }>;
  downloadFile(type: RepoType, repoId: string, path: string, revision?: string, signal?: AbortSignal): Promise<Buffer>;

  // Discussions (discussions.ts)
  listDiscussions(type: RepoType, repoId: string, filter?: DiscussionFilter, signal?: AbortSignal): Promise<DiscussionSummary[]>;
  /** A new discussion (not a pull request); never blindly retried. */
  createDiscussion(type: RepoType, repoId: string, title: string, description: string, signal?: AbortSignal): Promise<{ num: number }>;
  commentDiscussion(type: RepoType, repoId: string, num: number, comment: string, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
