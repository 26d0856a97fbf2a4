import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookPayload } from './payload.js';
import type { DeliveryRecord } from './delivery-log.js';

export interface HandlerContext {
  headers: IncomingHttpHeaders;
  /** Absolute path, e.g. `/webhooks/redeploy`. */
  endpoint: string;
  /** sha256 of endpoint + raw body: equal for a retry or replay of the same delivery. */
  deliveryKey: string;
}

/** Its return value is the JSON answer (200; undefined → null). Named after its function unless a path is given. */
export type WebhookHandler = (payload: WebhookPayload, ctx: HandlerContext) => unknown | Promise<unknown>;

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ReceiverOptions {
  /** Accepted secrets (several during a rotation); unset or empty → `WEBHOOK_SECRET`; none → endpoints open. */
  secret?: string | string[] | null;
  env?: NodeJS.ProcessEnv;
  /** Default DEFAULT_RECEIVER_PORT (lib/receiver-port.ts: 7860, the official receiver's); 0 = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * Host names besides localhost and this machine's own under which the
   * routes and the landing page answer (lib/allowed-host.ts); endpoints
   * (`/webhooks/<name>`), which the secret protects, answer under any Host.
   */
  allowedHosts?: string[];
  /** HTML of the page at `/`; null = no landing page. */
  landingPage?: ((endpoints: string[]) => string) | null;
  /** Handlers slower than this get a 202 at once and finish in the background. Default 3000. */
  slowHandlerMs?: number;
  /** A delivery repeated within this window runs once. Default 10 minutes; 0 = off. */
  dedupeWindowMs?: number;
  /** Default 1 MiB. */
  maxBodyBytes?: number;
  /** The clock of the dedupe window, in ms (tests inject one). Default Date.now. */
  now?: () => number;
  /** How many recent deliveries `deliveries` keeps. Default 100. */
  maxDeliveries?: number;
  /** One line per message, no trailing newline. Default: stdout. */
  log?: (line: string) => void;
  /** The start-up line that says where webhooks are set up. Default: the official receiver's (huggingface.co's settings page). */
  setupHint?: string;
  /** Without a secret, the start-up line that says how to add one. Default: the official receiver's, with `createReceiver({ secret })`. */
  secretHint?: string;
}

export interface Receiver {
  /** Register an endpoint; returns its absolute path `/webhooks/<name>`. Throws on a duplicate. */
  add(handler: WebhookHandler, opts?: { path?: string }): string;
  /** Extra routes (a status page, the fleet page at `/`); they take precedence over the landing page. */
  route(method: 'GET' | 'POST', path: string, handler: RouteHandler): void;
  start(): Promise<{ url: string; port: number }>;
  close(): Promise<void>;
  readonly endpoints: string[];
  /** The last deliveries received, oldest first. */
  readonly deliveries: DeliveryRecord[];
}
