/**
 * The accepted secrets: the option, else `WEBHOOK_SECRET` (like the official
 * receiver's `webhook_secret or os.getenv("WEBHOOK_SECRET")`). Empty strings
 * count as unset. An empty result means the endpoints are open.
 */
export function resolveSecrets(option: string | string[] | null | undefined, env: NodeJS.ProcessEnv): string[] {
  const given = (Array.isArray(option) ? option : [option]).filter((s): s is string => typeof s === 'string' && s !== '');
  if (given.length > 0) return [...new Set(given)];
  const fromEnv = env.WEBHOOK_SECRET;
  return fromEnv ? [fromEnv] : [];
}
