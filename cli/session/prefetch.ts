import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createHubClient } from '../../drivers/hub/client.js';
import { resolveEndpoint } from '../../drivers/hub/endpoint.js';
import type { HubClient, HubWebhook } from '../../drivers/hub/types.js';
import { readHubEndpoint } from '../../state/spec.js';

// plan, diff and status ask the hub for its webhooks before robot.yaml is
// read, so that the hub works on the answer while the file is parsed and
// checked (listing 50,000 webhooks takes the embedded hub about 150 ms,
// huggingface.co longer). Reading the file is synchronous, so the request
// must be on the wire before it starts: the session waits for undici to send
// its headers (its diagnostics channel), for at most WIRE_WAIT_MS, which a
// local hub never needs and a far one only spends on a connection it needs
// anyway. Only those read-only commands prefetch: apply lists after it holds
// the state lock, so that what it observes is never older than the state it
// read. The list is used only when the loaded file names the same hub
// (checked by the session), and never for a second observation. The token
// goes only to the hub HF_ENDPOINT or the file's hub.endpoint names, where
// the command would send it anyway, even if the rest of the file turns out
// to be invalid; an endpoint written with ${VAR} waits for the loader.

const WIRE_WAIT_MS = 100;

export interface WebhookPrefetch {
  /** The hub asked, as resolveEndpoint gives it. */
  endpoint: string;
  /** The client that asked: the session's hub client from then on. */
  client: HubClient;
  /** The list in flight, handed out once (later calls get undefined). */
  take(): Promise<HubWebhook[]> | undefined;
  /** Abort the list when nobody took it, or when the taker is interrupted. */
  cancel(): void;
}

/** Starts the list (resolving once it is sent), or null when the hub cannot be known before the file is loaded. */
export async function prefetchWebhooks(env: NodeJS.ProcessEnv, configFile: string, token: string): Promise<WebhookPrefetch | null> {
  // HF_ENDPOINT wins over the file (resolveEndpoint), so the file is read only without it.
  const written = env.HF_ENDPOINT?.trim() ? null : readHubEndpoint(configFile);
  // A ${VAR} in the endpoint is substituted by the loader: no token goes anywhere before.
  if (written?.includes('$')) return null;
  let endpoint: string;
  try {
    endpoint = resolveEndpoint(env, written);
  } catch {
    return null; // not a URL: the loader or the session says so, with where it came from
  }
  const client = createHubClient({ endpoint, token });
  const controller = new AbortController();
  const wire = onTheWire(new URL(endpoint).origin);
  let pending: Promise<HubWebhook[]> | undefined = client.listWebhooks(controller.signal);
  // Taken and awaited by observe, or dropped: a failure is observe's to report.
  const settled = pending.then(() => {}, () => {});
  await Promise.race([wire.sent, settled]);
  wire.stop();
  return {
    endpoint,
    client,
    take: () => {
      const out = pending;
      pending = undefined;
      return out;
    },
    cancel: () => controller.abort(),
  };
}

/** Resolves when undici sends the headers of a webhook list to `origin`, or after WIRE_WAIT_MS; stop() unsubscribes. */
function onTheWire(origin: string): { sent: Promise<void>; stop(): void } {
  let done!: () => void;
  const sent = new Promise<void>((resolve) => { done = resolve; });
  const timer = setTimeout(done, WIRE_WAIT_MS);
  const listener = (message: unknown): void => {
    const request = (message as { request?: { origin?: unknown; path?: unknown } }).request;
    if (request?.origin === origin && typeof request.path === 'string' && request.path.endsWith(LIST_PATH)) done();
  };
  subscribe(CHANNEL, listener);
  return {
    sent,
    stop: () => {
      clearTimeout(timer);
      unsubscribe(CHANNEL, listener);
    },
  };
}

const CHANNEL = 'undici:client:sendHeaders';
const LIST_PATH = '/api/settings/webhooks';
