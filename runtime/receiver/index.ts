// The webhook receiver library: import from here.
export { createReceiver } from './create-receiver.js';
export type { Receiver, ReceiverOptions, WebhookHandler, HandlerContext, RouteHandler } from './types.js';
export type * from './payload.js';
export { WEBHOOK_ACTIONS, PAYLOAD_REPO_TYPES, DISCUSSION_STATUSES } from './payload.js';
export { parsePayload, type ParseResult } from './parse-payload.js';
export { payloadSchema } from './payload-schema.js';
export { verifySecret, type SecretCheck } from './verify-secret.js';
export type { DeliveryRecord, DeliveryOutcome } from './delivery-log.js';
export { receiverErrors, type ReceiverError } from './errors.js';
export { landingPage } from './landing-page.js';
export { formatDeliveryLine } from './delivery-log.js';
