import { request, type Agent } from 'undici';
import { errorMessage } from '../../lib/errors.js';

// One delivery attempt: POST the JSON payload, drain the answer, time it.

export interface SendResult {
  status: number | null;
  durationMs: number;
  error: string | null;
}

export async function sendOnce(
  agent: Agent,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<SendResult> {
  const started = performance.now();
  try {
    const res = await request(url, {
      method: 'POST', dispatcher: agent, body, headers, signal,
      headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
    });
    await res.body.dump();
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return { status: res.statusCode, durationMs: elapsed(started), error: ok ? null : `HTTP ${res.statusCode}` };
  } catch (err) {
    return { status: null, durationMs: elapsed(started), error: errorMessage(err) };
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
