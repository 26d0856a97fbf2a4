import { UserError } from '../../lib/errors.js';

export const DEFAULT_ENDPOINT = 'https://huggingface.co';

/**
 * The hub endpoint: HF_ENDPOINT overrides robot.yaml (so the official client
 * and robotctl agree), then the configured value, then huggingface.co.
 * Trailing slashes are stripped, as huggingface_hub does. A value that is not
 * an http(s) URL is refused here, naming where it came from, rather than
 * failing later as a bare `Invalid URL`.
 */
export function resolveEndpoint(env: NodeJS.ProcessEnv, configured?: string | null): string {
  const fromEnv = env.HF_ENDPOINT?.trim();
  const chosen = fromEnv || configured?.trim() || DEFAULT_ENDPOINT;
  checkUrl(chosen, fromEnv ? 'HF_ENDPOINT' : 'hub.endpoint in robot.yaml');
  return chosen.replace(/\/+$/, '');
}

function checkUrl(value: string, source: string): void {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UserError(`${source} is not a URL: '${value}'; expected the form http://HOST:PORT or https://huggingface.co (with the scheme)`);
  }
}
