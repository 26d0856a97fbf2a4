// Which hub a Space URL is downloaded from. Pollen's daemon takes the last
// two path segments of any URL and downloads from huggingface.co (its
// HF_ENDPOINT), whatever the host. The simulated robot does the same for a
// huggingface.co URL, which goes to its configured hub (--hub, HF_ENDPOINT;
// `up` gives its robots the embedded hub, so robot.yaml's huggingface.co
// sources install offline). A URL on another host is fetched from that host:
// `http://127.0.0.1:7870/spaces/demo/my_app` typed in a dashboard reaches the
// embedded hub there, not huggingface.co. The daemon's token goes only to its
// configured hub, never to a host a request named.

const HUGGING_FACE_HOSTS = new Set(['huggingface.co', 'www.huggingface.co', 'hf.co']);

export interface SpaceHost {
  /** The hub's base URL (scheme, host, port, and any path before `/spaces/`). */
  endpoint: string;
  /** True for the daemon's own hub (its token is sent there). */
  configured: boolean;
}

export function spaceHost(url: string | null | undefined, configured: string): SpaceHost {
  const own = { endpoint: configured, configured: true };
  let u: URL;
  try {
    u = new URL(url ?? '');
  } catch {
    return own; // a bare repo id, or a path: the configured hub
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || HUGGING_FACE_HOSTS.has(u.hostname)) return own;
  const at = u.pathname.indexOf('/spaces/');
  const endpoint = `${u.origin}${at > 0 ? u.pathname.slice(0, at) : ''}`;
  return sameHub(endpoint, configured) ? own : { endpoint, configured: false };
}

function sameHub(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
