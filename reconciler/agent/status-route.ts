import type { ServerResponse } from 'node:http';
import type { AgentStatus } from './status-types.js';

/** GET /status: the document, never cached (the page polls it). */
export function sendStatus(res: ServerResponse, status: AgentStatus): void {
  const body = JSON.stringify(status);
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  });
  res.end(body);
}
