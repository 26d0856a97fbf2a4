// The requests huggingface_hub's HfApi sends (hf_api.py, _commit_api.py,
// file_download.py), made by hand so the tests run offline without Python.
// Each helper returns the parsed answer the official client reads.

export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export function hfClient(endpoint: string, token: string | null) {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const call = async <T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Answer<T>> => {
    const headers: Record<string, string> = { ...auth, ...extra };
    let payload: string | undefined;
    if (typeof body === 'string') payload = body;
    else if (body !== undefined) { headers['content-type'] = 'application/json'; payload = JSON.stringify(body); }
    const res = await fetch(`${endpoint}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  return {
    call,
    /** create_commit: NDJSON header + file / deletedFile / deletedFolder lines. */
    commit: (type: string, repoId: string, rev: string, summary: string, ops: ({ add: string; content: string } | { del: string } | { delFolder: string })[], parentCommit?: string, query = '') => {
      const header: Record<string, unknown> = { summary, description: '' };
      if (parentCommit) header.parentCommit = parentCommit;
      const lines = [{ key: 'header', value: header }, ...ops.map((o) => ('add' in o
        ? { key: 'file', value: { content: Buffer.from(o.content).toString('base64'), path: o.add, encoding: 'base64' } }
        : 'del' in o ? { key: 'deletedFile', value: { path: o.del } } : { key: 'deletedFolder', value: { path: o.delFolder } }))];
      return call<{ commitOid: string; commitUrl: string; pullRequestUrl?: string }>('POST', `/api/${type}s/${repoId}/commit/${encodeURIComponent(rev)}${query}`,
        lines.map((l) => JSON.stringify(l)).join('\n'), { 'content-type': 'application/x-ndjson' });
    },
  };
}
