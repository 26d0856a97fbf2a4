import type { WebhookPayload } from './payload.js';

/**
 * ok: the handler answered; accepted: answered 202, handler still running;
 * failed: the handler threw; duplicate: a repeat answered from the first run;
 * rejected: refused by the receiver (secret, media type, size, payload).
 */
export type DeliveryOutcome = 'ok' | 'accepted' | 'failed' | 'duplicate' | 'rejected';

export interface DeliveryRecord {
  /** Increasing number, unique per receiver. */
  id: number;
  /** ISO time the delivery arrived. */
  time: string;
  endpoint: string;
  /** `scope/action`, e.g. `repo.content/update`; null when the body was refused. */
  event: string | null;
  /** `type:name`, e.g. `space:alice/hello_app`; null when the body was refused. */
  repo: string | null;
  /** HTTP status answered. */
  status: number;
  outcome: DeliveryOutcome;
  /** Handler run time; null until it finishes (or when it never ran). */
  durationMs: number | null;
  /** What the handler returned (also for a 202 delivery once it finished). */
  result?: unknown;
  /** Why it was refused or failed (the error message, never a stack). */
  error?: string;
}

export function describeEvent(payload: WebhookPayload): { event: string; repo: string } {
  return { event: `${payload.event.scope}/${payload.event.action}`, repo: `${payload.repo.type}:${payload.repo.name}` };
}

/** A record while it may still change; `time` is formatted only when read. */
export type LiveDelivery = Omit<DeliveryRecord, 'time'> & { arrived: number };

/** The last `size` deliveries, oldest first; records are updated in place until read. */
export class DeliveryLog {
  private readonly records: LiveDelivery[] = [];
  private nextId = 1;

  constructor(private readonly size = 100) {}

  add(fields: Omit<DeliveryRecord, 'id' | 'time' | 'durationMs'>, arrived: number): LiveDelivery {
    const record: LiveDelivery = { id: this.nextId++, arrived, durationMs: null, ...fields };
    this.records.push(record);
    if (this.records.length > this.size * 2) this.records.splice(0, this.records.length - this.size);
    return record;
  }

  list(): DeliveryRecord[] {
    return this.records.slice(-this.size).map(({ arrived, ...rest }) => ({ ...rest, time: new Date(arrived).toISOString() }));
  }
}

/** `<time> /webhooks/<name> <scope>/<action> <type>:<repo>`: one line per delivery. */
export function formatDeliveryLine(payload: WebhookPayload, endpoint: string, at: Date = new Date()): string {
  const { event, repo } = describeEvent(payload);
  return `${at.toISOString()} ${endpoint} ${event} ${repo}`;
}
