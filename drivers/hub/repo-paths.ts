import type { RepoType } from '../../lib/wire/hub.js';

// A repo's addresses on the hub, as huggingface_hub builds them: the API
// under `/api/{models,datasets,spaces}/<id>`, files and git under the web
// prefix (none for models, `/datasets`, `/spaces`).

/** Each segment of a `/`-separated path URL-encoded, the slashes kept. */
export const encPath = (p: string): string => p.split('/').map(encodeURIComponent).join('/');

export const repoApiPath = (type: RepoType, repoId: string): string => `/api/${type}s/${encPath(repoId)}`;

export const urlPrefix = (type: RepoType): string => (type === 'model' ? '' : `/${type}s`);
