import { startDaemon, type DaemonOptions, type RunningDaemon } from '../../runtime/daemon/server.js';
import { startHub, type HubOptions, type RunningHub } from '../../runtime/hub/server.js';
import { createDaemonClient } from '../../drivers/daemon/client.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';

// The real servers a test talks to, on a free loopback port, stopped by the
// test's teardown (so a failing assertion never leaves one running).

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** The simulated daemon on port 0 with its apps in appsDir. */
export async function simDaemon(t: Teardown, appsDir: string, opts: Partial<DaemonOptions> = {}): Promise<RunningDaemon> {
  const daemon = await startDaemon({ appsDir, sim: true, port: 0, ...opts });
  t.teardown(() => daemon.close());
  return daemon;
}

/** The embedded hub on port 0. */
export async function embeddedHub(t: Teardown, opts: HubOptions): Promise<RunningHub> {
  const hub = await startHub({ port: 0, ...opts });
  t.teardown(() => hub.close());
  return hub;
}

export interface Pair {
  daemon: RunningDaemon;
  client: DaemonClient;
  appsDir: string;
}

/** A simulated daemon and the driver talking to it (closed with closePair). */
export async function daemonPair(appsDir: string, opts: { stopTimeoutMs?: number; startupApp?: string | null; hubEndpoint?: string; log?: (l: string) => void } = {}): Promise<Pair> {
  const daemon = await startDaemon({ appsDir, sim: true, port: 0, ...opts });
  const client = createDaemonClient({ baseUrl: daemon.url, timeoutMs: 10_000, jobTimeoutMs: 120_000 });
  return { daemon, client, appsDir };
}

export async function closePair(p: Pair): Promise<void> {
  await p.client.close();
  await p.daemon.close();
}
