export const DEFAULT_ENDPOINT = 'https://huggingface.co';

/**
 * The hub endpoint: HF_ENDPOINT overrides robot.yaml (so the official client
 * and robotctl agree), then the configured value, then huggingface.co.
 * Trailing slashes are stripped, as huggingface_hub does.
 */
export function resolveEndpoint(env: NodeJS.ProcessEnv, configured?: string | null): string {
  const fromEnv = env.HF_ENDPOINT?.trim();
  const chosen = fromEnv || configured?.trim() || DEFAULT_ENDPOINT;
  return chosen.replace(/\/+$/, '');
}
