// The embedded hub's one error registry. Every error answers
// `{"error": message}` with the same text in the `X-Error-Message` header
// (what huggingface_hub's hf_raise_for_status reads), and `X-Error-Code` where
// the official client maps a code to a typed exception.
//
// code                      status  when
// HUB_ERR_AUTH_MISSING       401    no Authorization: Bearer header on a route that needs one
// HUB_ERR_AUTH_INVALID       401    the token matches no user
// HUB_ERR_FORBIDDEN          403    the user may not act on this namespace or repo
// HUB_ERR_CROSS_SITE         403    a state-changing request a browser marks as coming from another site (Origin, Sec-Fetch-Site)
// HUB_ERR_HOST_NOT_ALLOWED   403    a Host that is not localhost, this machine's, or an --allowed-host (DNS rebinding)
// HUB_ERR_BAD_REQUEST        400    invalid body or parameter; the message says which
// HUB_ERR_UNPROCESSABLE      422    a commit whose content the Hub refuses (a path outside the repo)
// HUB_ERR_WEBHOOK_NOT_FOUND  404    unknown webhook id (or another user's)
// HUB_ERR_REPO_NOT_FOUND     404    unknown repo, or private to someone else (X-Error-Code: RepoNotFound);
//                                   also an /api/{models,datasets,spaces}/… or …/resolve/… address no route takes
// HUB_ERR_REPO_AUTH_REQUIRED 401    the same, asked without a token: the Hub answers 401 then (X-Error-Code: RepoNotFound)
// HUB_ERR_GATED              403    a gated repo's files, asked by a user without access (X-Error-Code: GatedRepo)
// HUB_ERR_GATED_AUTH         401    the same, asked without a token (X-Error-Code: GatedRepo)
// HUB_ERR_REVISION_NOT_FOUND 404    unknown revision (X-Error-Code: RevisionNotFound)
// HUB_ERR_ENTRY_NOT_FOUND    404    unknown file in a revision (X-Error-Code: EntryNotFound)
// HUB_ERR_DISCUSSION_NOT_FOUND 404  unknown discussion number
// HUB_ERR_REPO_EXISTS        409    create of a repo that exists
// HUB_ERR_CONFLICT           409    a change that conflicts (an existing branch or tag, a pull request with conflicts)
// HUB_ERR_STALE_PARENT       412    a commit whose parent_commit is no longer the head of its branch
// HUB_ERR_NOT_FOUND          404    no such route

export type HubErrorCode =
  | 'HUB_ERR_AUTH_MISSING'
  | 'HUB_ERR_AUTH_INVALID'
  | 'HUB_ERR_FORBIDDEN'
  | 'HUB_ERR_CROSS_SITE'
  | 'HUB_ERR_HOST_NOT_ALLOWED'
  | 'HUB_ERR_BAD_REQUEST'
  | 'HUB_ERR_UNPROCESSABLE'
  | 'HUB_ERR_WEBHOOK_NOT_FOUND'
  | 'HUB_ERR_REPO_NOT_FOUND'
  | 'HUB_ERR_REPO_AUTH_REQUIRED'
  | 'HUB_ERR_GATED'
  | 'HUB_ERR_GATED_AUTH'
  | 'HUB_ERR_REVISION_NOT_FOUND'
  | 'HUB_ERR_ENTRY_NOT_FOUND'
  | 'HUB_ERR_DISCUSSION_NOT_FOUND'
  | 'HUB_ERR_REPO_EXISTS'
  | 'HUB_ERR_STALE_PARENT'
  | 'HUB_ERR_CONFLICT'
  | 'HUB_ERR_NOT_FOUND';

const STATUS: Record<HubErrorCode, number> = {
  HUB_ERR_AUTH_MISSING: 401,
  HUB_ERR_AUTH_INVALID: 401,
  HUB_ERR_FORBIDDEN: 403,
  HUB_ERR_CROSS_SITE: 403,
  HUB_ERR_HOST_NOT_ALLOWED: 403,
  HUB_ERR_BAD_REQUEST: 400,
  HUB_ERR_UNPROCESSABLE: 422,
  HUB_ERR_WEBHOOK_NOT_FOUND: 404,
  HUB_ERR_REPO_NOT_FOUND: 404,
  HUB_ERR_REPO_AUTH_REQUIRED: 401,
  HUB_ERR_GATED: 403,
  HUB_ERR_GATED_AUTH: 401,
  HUB_ERR_REVISION_NOT_FOUND: 404,
  HUB_ERR_ENTRY_NOT_FOUND: 404,
  HUB_ERR_DISCUSSION_NOT_FOUND: 404,
  HUB_ERR_REPO_EXISTS: 409,
  HUB_ERR_STALE_PARENT: 412,
  HUB_ERR_CONFLICT: 409,
  HUB_ERR_NOT_FOUND: 404,
};

/** Names the official client understands in X-Error-Code. */
const CLIENT_CODE: Partial<Record<HubErrorCode, string>> = {
  HUB_ERR_REPO_NOT_FOUND: 'RepoNotFound',
  HUB_ERR_REPO_AUTH_REQUIRED: 'RepoNotFound',
  HUB_ERR_GATED: 'GatedRepo',
  HUB_ERR_GATED_AUTH: 'GatedRepo',
  HUB_ERR_REVISION_NOT_FOUND: 'RevisionNotFound',
  HUB_ERR_ENTRY_NOT_FOUND: 'EntryNotFound',
};

export class HubApiError extends Error {
  readonly statusCode: number;
  readonly clientCode: string | null;
  constructor(readonly code: HubErrorCode, message: string) {
    super(message);
    this.name = 'HubApiError';
    this.statusCode = STATUS[code];
    this.clientCode = CLIENT_CODE[code] ?? null;
  }
}

/** The Hub's own words for a stale `parent_commit` (HTTP 412). */
export const STALE_PARENT_MESSAGE = 'The branch was updated since you opened this page. Please refresh and try again.';

/**
 * The Hub's own words for a missing (or hidden) repo. huggingface_hub prints its own "Repository Not Found
 * for url: …" and leaves out a server message it already contains, so this exact text keeps its errors clean.
 */
export const REPO_NOT_FOUND_MESSAGE = 'Repository not found';

export const badRequest = (message: string): HubApiError => new HubApiError('HUB_ERR_BAD_REQUEST', message);

/** Header values must be latin-1 without control characters. */
export function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 500);
}
