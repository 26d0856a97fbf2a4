import { isUnknownOutcome } from './errors.js';
import type { HubHttp } from './http.js';

// A create is not idempotent: after a 5xx, a reset or a lost answer the
// resource may exist. So the next attempt first lists and adopts what landed,
// and creates again only when nothing did. Every attempt (list and/or create)
// counts against the same bound, so a persistent failure costs at most
// 2 × attempts requests, and a persistent 503 on every route `attempts`.

export interface CreateSteps<T> {
  create(): Promise<T>;
  /** What an earlier create may have made, or null. One request, no retry. */
  find(): Promise<T | null>;
}

export function createOrAdopt<T>(http: HubHttp, steps: CreateSteps<T>, signal?: AbortSignal): Promise<T> {
  let mayExist = false;
  // The combined step is safe to repeat: it never creates while a landed one may exist.
  return http.retry(true, signal, async () => {
    if (mayExist) {
      const found = await steps.find();
      if (found !== null) return found;
      mayExist = false;
    }
    try {
      return await steps.create();
    } catch (err) {
      if (isUnknownOutcome(err)) mayExist = true;
      throw err;
    }
  });
}
