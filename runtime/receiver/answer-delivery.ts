import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { WebhookHandler } from './types.js';
import type { WebhookPayload } from './payload.js';
import type { DeliveryContext } from './delivery-context.js';
import { describeEvent, type LiveDelivery } from './delivery-log.js';
import { runHandler, type HandlerOutcome, type HandlerRun } from './run-handler.js';
import { receiverErrors } from './errors.js';
import { sendJson } from './send-json.js';

export interface Delivery {
  endpoint: string;
  handler: WebhookHandler;
  payload: WebhookPayload;
  key: string;
  headers: IncomingHttpHeaders;
  arrived: number;
}

const ACCEPTED = '{"status":"accepted"}';

/**
 * Dispatch a valid delivery: answer a repeat from memory, else run the
 * handler (202 if slow). Synchronous for a synchronous handler; a promise
 * only when the handler returned one.
 */
export function answerDelivery(res: ServerResponse, d: Delivery, dc: DeliveryContext): void | Promise<void> {
  const seen = dc.dedupe.claim(d.key);
  if (seen) {
    const status = seen.state === 'done' ? seen.status : 202;
    sendJson(res, status, seen.state === 'done' ? seen.body : ACCEPTED);
    dc.deliveries.add({ endpoint: d.endpoint, ...describeEvent(d.payload), status, outcome: 'duplicate' }, d.arrived);
    return;
  }
  const ctx = { headers: d.headers, endpoint: d.endpoint, deliveryKey: d.key };
  const run = runHandler(d.handler, d.payload, ctx, dc.slowHandlerMs);
  if (run instanceof Promise) return run.then((r) => answerRun(res, r, d, dc));
  answerRun(res, run, d, dc);
}

function answerRun(res: ServerResponse, run: HandlerRun, d: Delivery, dc: DeliveryContext): void {
  const { event, repo } = describeEvent(d.payload);
  if (!run.slow) {
    const status = run.outcome.ok ? 200 : 500;
    sendJson(res, status, run.outcome.ok ? run.outcome.body : receiverErrors.handlerFailed().body);
    const record = dc.deliveries.add({ endpoint: d.endpoint, event, repo, status, outcome: 'ok' }, d.arrived);
    settle(record, run.outcome, d, dc);
    return;
  }
  sendJson(res, 202, ACCEPTED);
  const record = dc.deliveries.add({ endpoint: d.endpoint, event, repo, status: 202, outcome: 'accepted' }, d.arrived);
  dc.track(run.finished.then((outcome) => settle(record, outcome, d, dc)));
}

// Record the outcome; remember successes for repeats, forget failures so the
// Hub's retry of a failed delivery runs the handler again.
function settle(record: LiveDelivery, outcome: HandlerOutcome, d: Delivery, dc: DeliveryContext): void {
  record.durationMs = Math.round(outcome.durationMs * 10) / 10;
  if (outcome.ok) {
    record.outcome = 'ok';
    record.result = outcome.result;
    dc.dedupe.set(d.key, { state: 'done', status: 200, body: outcome.body });
    return;
  }
  record.outcome = 'failed';
  record.error = outcome.error;
  dc.dedupe.delete(d.key);
  dc.log(`${d.endpoint}: handler failed: ${outcome.error}`);
}
