import type { Test } from 'tap';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import { createReceiver, type Receiver, type ReceiverOptions } from '../../runtime/receiver/index.js';

export interface Started {
  receiver: Receiver;
  url: string;
  lines: string[];
}

/** A receiver on a free loopback port, closed when the test ends; its log is captured. */
export async function startReceiver(t: Test, opts: ReceiverOptions = {}, setup: (r: Receiver) => void = () => {}): Promise<Started> {
  const lines: string[] = [];
  const receiver = createReceiver({ port: 0, env: {}, log: (l) => lines.push(l), ...opts });
  setup(receiver);
  const { url } = await receiver.start();
  t.teardown(() => receiver.close());
  return { receiver, url, lines };
}

export interface Answer {
  status: number;
  body: unknown;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return answer(res);
}

export async function postStream(url: string, body: Readable): Promise<Answer> {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return answer(res);
}

export async function get(url: string): Promise<Answer> {
  return answer(await request(url));
}

async function answer(res: Awaited<ReturnType<typeof request>>): Promise<Answer> {
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML or empty: keep the text.
  }
  return { status: res.statusCode, body, text, headers: res.headers };
}
