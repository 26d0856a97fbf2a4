import { Client, Dispatcher, Pool } from 'undici';

// One bounded set of connections shared by the clients of every robot, so a
// fleet run holds file descriptors in proportion to its parallelism, not to
// the number of robots. A robot has two lanes: reads (GET) on one
// connection, pipelined two deep, and writes (install, start, stop) on up to
// `perOrigin - 1` connections of their own, so a read never waits behind a
// long stop. A drift check's two reads of a robot thus cost one connect and
// one close, not two: those were the largest part of its CPU. The lanes of at
// most `origins` robots are kept open; a robot beyond that closes the least
// recently used lanes with nothing in flight (their sockets end gracefully)
// until a robot's are all closed; a lane in use is never cut. An apply sizes
// `origins` to the robots its rollout works on at once: a start polls its
// robot every 100 ms, and with fewer lanes kept than robots polled, each poll
// opened a connection (100 robots switched at once: 2.4 s of CLI CPU).

/** Robots whose connections a pool keeps open by default: a drift check's. */
export const ROBOTS_KEPT_OPEN = 16;

export interface RobotPoolOptions {
  /** Robots whose connections stay open (default ROBOTS_KEPT_OPEN). */
  origins?: number;
  /** Connections to one robot (default 2: one for reads, the rest for writes). */
  perOrigin?: number;
  keepAliveMs?: number;
  connectTimeoutMs?: number;
}

const READS = new Set(['GET', 'HEAD']);
const EVICTED = new Error('robot connections closed: idle, and the pool is full');

export class RobotPool extends Dispatcher {
  private readonly pools = new Map<string, Pool | Client>();
  /** Open lanes per robot (origin): its size is the number of robots with open connections. */
  private readonly lanes = new Map<string, number>();
  private readonly origins: number;
  private readonly readOptions: Client.Options;
  private readonly writeOptions: Pool.Options;

  constructor(opts: RobotPoolOptions = {}) {
    super();
    this.origins = Math.max(1, opts.origins ?? ROBOTS_KEPT_OPEN);
    const common = { keepAliveTimeout: opts.keepAliveMs ?? 4_000, connect: { timeout: opts.connectTimeoutMs ?? 10_000 } };
    // One Client, not a Pool of one: requests wait in it while it connects,
    // then go out back to back (undici pipelines only idempotent requests).
    this.readOptions = { ...common, pipelining: 2 };
    this.writeOptions = { ...common, connections: Math.max(1, (opts.perOrigin ?? 2) - 1) };
  }

  /** Robots with open pools right now (tests, bench). */
  get openOrigins(): number {
    return this.lanes.size;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = String(options.origin);
    const read = READS.has(options.method);
    const lane = `${origin} ${read ? 'r' : 'w'}`;
    let pool = this.pools.get(lane);
    if (pool) this.pools.delete(lane); // re-inserted last: Map order is the LRU order
    else {
      if (!this.lanes.has(origin)) this.evictIdle();
      pool = read ? new Client(origin, this.readOptions) : new Pool(origin, this.writeOptions);
      this.lanes.set(origin, (this.lanes.get(origin) ?? 0) + 1);
    }
    this.pools.set(lane, pool);
    return pool.dispatch(options, handler);
  }

  /** Closes idle lanes, least recently used first, until fewer than `origins` robots have any. */
  private evictIdle(): void {
    for (const [lane, pool] of this.pools) {
      if (this.lanes.size < this.origins) return;
      if (pool.stats.size > 0) continue;
      this.pools.delete(lane);
      const origin = lane.slice(0, lane.lastIndexOf(' '));
      const left = (this.lanes.get(origin) ?? 1) - 1;
      if (left > 0) this.lanes.set(origin, left);
      else this.lanes.delete(origin);
      // Nothing queued or in flight (checked above, and nothing can be
      // dispatched before this line): destroy ends it like close() would, but
      // with one shared error instead of a new one (and its stack) per socket.
      void pool.destroy(EVICTED).catch(() => {});
    }
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  /** Ends every connection gracefully; a later request opens new ones. */
  override close(callback?: () => void): Promise<void> | void {
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.lanes.clear();
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
    this.lanes.clear();
    const all = Promise.all(pools.map((p) => p.destroy(err))).then(() => {});
    if (callback) { void all.then(callback); return; }
    return all;
  }
}
