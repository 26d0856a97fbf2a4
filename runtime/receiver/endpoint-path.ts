/**
 * `/webhooks/<name>`: the explicit path, else the handler's function name,
 * with leading and trailing slashes stripped (as the official receiver does).
 */
export function endpointPath(handlerName: string, path?: string): string {
  const name = (path || handlerName).replace(/^\/+|\/+$/g, '');
  if (!name) throw new Error('Webhook needs a name: pass { path } or a named function.');
  return `/webhooks/${name}`;
}
