// Browsers label every request with where it comes from; other clients (curl,
// git, huggingface_hub, robotctl) send neither header. A state-changing
// request that a browser says comes from another site is refused, so a web page
// the user opens cannot drive a local server. Pure; each server calls it.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Headers = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Why the request must be refused, or null when it may proceed. */
export function crossSiteReason(method: string, headers: Headers): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const site = one(headers['sec-fetch-site'])?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site: ${site}`;
  const origin = one(headers.origin);
  if (origin === undefined) return null;
  const host = one(headers.host);
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return `Origin: ${origin.slice(0, 100)}`;
  }
  return host !== undefined && originHost.toLowerCase() === host.toLowerCase() ? null : `Origin: ${origin.slice(0, 100)}`;
}
