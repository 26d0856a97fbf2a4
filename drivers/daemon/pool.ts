import { Dispatcher, Pool } from './undici.js';

// One bounded set of connections shared by the clients of every robot, so a
// fleet run holds file descriptors in proportion to its parallelism, not to
// the number of robots: at most `perOrigin` connections to one robot, and the
// connections of at most `origins` robots kept open. Opening a robot beyond
// that closes the least recently used robot that has nothing in flight (its
// sockets end gracefully); a robot in use is never cut.

export interface RobotPoolOptions {
  /** Robots whose connections stay open (default 16). */
  origins?: number;
  /** Connections to one robot (default 2: a drift check reads two routes at once). */
  perOrigin?: number;
  keepAliveMs?: number;
  connectTimeoutMs?: number;
}

export class RobotPool extends Dispatcher {
  private readonly pools = new Map<string, Pool>();
  private readonly origins: number;
  private readonly poolOptions: Pool.Options;

  constructor(opts: RobotPoolOptions = {}) {
    super();
    this.origins = Math.max(1, opts.origins ?? 16);
    this.poolOptions = {
      connections: Math.max(1, opts.perOrigin ?? 2),
      keepAliveTimeout: opts.keepAliveMs ?? 4_000,
      connect: { timeout: opts.connectTimeoutMs ?? 10_000 },
    };
  }

  /** Robots with open pools right now (tests, bench). */
  get openOrigins(): number {
    return this.pools.size;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin);
    let pool = this.pools.get(origin);
    if (pool) this.pools.delete(origin); // re-inserted last: Map order is the LRU order
    else {
      this.evictIdle();
      pool = new Pool(origin, this.poolOptions);
    }
    this.pools.set(origin, pool);
    return pool.dispatch(options, handler);
  }

  private evictIdle(): void {
    for (const [origin, pool] of this.pools) {
      if (this.pools.size < this.origins) return;
      if (pool.stats.size > 0) continue;
      this.pools.delete(origin);
      void pool.close().catch(() => {});
    }
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  /** Ends every connection gracefully; a later request opens new ones. */
  override close(callback?: () => void): Promise<void> | void {
    const pools = [...this.pools.values()];
    this.pools.clear();
    const all = Promise.all(pools.map((p) => p.close())).then(() => {});
    if (callback) { void all.then(callback); return; }
    return all;
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : a ?? null;
    const callback = typeof a === 'function' ? a : b;
    const pools = [...this.pools.values()];
    this.pools.clear();
    const all = Promise.all(pools.map((p) => p.destroy(err))).then(() => {});
    if (callback) { void all.then(callback); return; }
    return all;
  }
}
