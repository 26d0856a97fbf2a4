import type { DedupeCache } from './dedupe-cache.js';
import type { SecretCheck } from './verify-secret.js';
import type { DeliveryLog } from './delivery-log.js';

/** What every delivery shares: settings and the receiver's bookkeeping. */
export interface DeliveryContext {
  /** Null when no secret is set: the endpoints are open. */
  checkSecret: ((header: string | undefined) => SecretCheck) | null;
  maxBodyBytes: number;
  slowHandlerMs: number;
  dedupe: DedupeCache;
  deliveries: DeliveryLog;
  log: (line: string) => void;
  /** Keep a background (202) run referenced until it settles. */
  track: (finished: Promise<unknown>) => void;
}
