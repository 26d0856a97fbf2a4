import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookHandler } from './types.js';
import type { WebhookPayload } from './payload.js';
import { isJsonContentType } from './content-type.js';
import { readBody } from './read-body.js';
import { parsePayload } from './parse-payload.js';
import { deliveryKey } from './delivery-key.js';
import { receiverErrors, type ReceiverError } from './errors.js';
import { sendJson } from './send-json.js';
import { answerDelivery } from './answer-delivery.js';
import type { DeliveryContext } from './delivery-context.js';

/**
 * One POST to an endpoint: verify secret → read body → parse payload → dispatch.
 * The secret is checked first, so an unauthenticated sender learns nothing
 * about the body rules and its body is never read. Callbacks rather than
 * promises on this path (every delivery takes it); whatever throws on the way
 * goes to `fail`, which answers 500.
 */
export function handleDelivery(
  req: IncomingMessage, res: ServerResponse, endpoint: string, handler: WebhookHandler, dc: DeliveryContext, fail: (err: unknown) => void,
): void {
  const arrived = Date.now();
  const refused = precheck(req, dc);
  if (refused) return reject(res, endpoint, refused, dc, arrived);
  readBody(req, dc.maxBodyBytes, (read) => {
    try {
      if (!read.ok) {
        // Close rather than drain a body that may be huge.
        return reject(res, endpoint, receiverErrors.bodyTooLarge(dc.maxBodyBytes), dc, arrived, { connection: 'close' });
      }
      const parsed = parseBody(read.body);
      if (!parsed.ok) return reject(res, endpoint, parsed.error, dc, arrived);
      const key = deliveryKey(endpoint, read.body);
      const answered = answerDelivery(res, { endpoint, handler, payload: parsed.payload, key, headers: req.headers, arrived }, dc);
      if (answered) answered.catch(fail);
    } catch (err) {
      fail(err);
    }
  });
}

function precheck(req: IncomingMessage, dc: DeliveryContext): ReceiverError | null {
  if (dc.checkSecret) {
    const header = req.headers['x-webhook-secret'];
    const check = dc.checkSecret(Array.isArray(header) ? header.join(', ') : header);
    if (check === 'missing') return receiverErrors.secretMissing();
    if (check === 'invalid') return receiverErrors.secretInvalid();
  }
  if (!isJsonContentType(req.headers['content-type'])) return receiverErrors.unsupportedMedia();
  return null;
}

function parseBody(body: Buffer): { ok: true; payload: WebhookPayload } | { ok: false; error: ReceiverError } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return { ok: false, error: receiverErrors.badJson(err instanceof Error ? err.message : 'unparsable') };
  }
  const result = parsePayload(json);
  return result.ok ? result : { ok: false, error: receiverErrors.invalidPayload(result.error) };
}

function reject(res: ServerResponse, endpoint: string, error: ReceiverError, dc: DeliveryContext, arrived: number, headers: Record<string, string> = {}): void {
  sendJson(res, error.status, error.body, headers);
  const why = error.body.error ?? error.body.detail ?? error.code;
  dc.deliveries.add({ endpoint, event: null, repo: null, status: error.status, outcome: 'rejected', error: why }, arrived);
  dc.log(`${endpoint}: ${error.status} ${why}`);
}
