// Small fetch helpers for the daemon's REST API. Every refusal is turned into
// the daemon's own words (the FastAPI-style `{"detail": …}`) so the page can
// show exactly what the robot said.

/** Error carrying the daemon's message and HTTP status. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Human text from an error body: `{detail: str}`, 422 `{detail: [{msg, loc}]}`, `{message}` or `{error}`. */
export function detailText(body, status) {
  if (body && typeof body === 'object') {
    const d = body.detail;
    if (typeof d === 'string') return d;
    if (Array.isArray(d)) {
      return d.map((e) => {
        const where = Array.isArray(e?.loc) ? e.loc.filter((p) => p !== 'body').join('.') : '';
        return where ? `${where}: ${e?.msg ?? 'invalid'}` : String(e?.msg ?? 'invalid');
      }).join('; ');
    }
    if (typeof body.message === 'string') return body.message;
    if (typeof body.error === 'string') return body.error;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  return `Request failed with HTTP ${status}`;
}

async function readBody(res) {
  const text = await res.text();
  if (!text) return null;
  try { return JSON.parse(text); } catch { return text; }
}

/** JSON request against the page's own origin; throws ApiError with the daemon's message on failure. */
export async function api(method, path, body) {
  const init = { method, headers: { accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError('The daemon cannot be reached', 0);
  }
  const data = await readBody(res);
  if (!res.ok) throw new ApiError(detailText(data, res.status), res.status);
  return data;
}

/** ws:// or wss:// URL of a path on this page's host. */
export function wsUrl(path) {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}${path}`;
}
