import { createRequire } from 'node:module';
import type * as Undici from 'undici';

// The parts of undici the daemon driver uses, loaded alone (see
// drivers/hub/undici.ts for why): a CLI start loads about 30 of undici's
// modules instead of 110. Same files, same classes: a test or a runtime that
// imports 'undici' itself shares them (instanceof holds).

const load = createRequire(import.meta.url);

export const Dispatcher = load('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
// What undici's index does: request() and the other calls on every dispatcher.
Object.assign(Dispatcher.prototype, load('undici/lib/api/index.js') as object);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Pool = load('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export const Client = load('undici/lib/dispatcher/client.js') as typeof Undici.Client;

export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  dispatcher: Undici.Dispatcher;
  method?: Undici.Dispatcher.HttpMethod;
};

/** undici's request(url, opts) for an explicit dispatcher (the drivers never use the global one). */
export function request(url: string, opts: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const u = new URL(url);
  const { dispatcher, ...rest } = opts;
  return dispatcher.request({
    ...rest,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: opts.method ?? (opts.body ? 'PUT' : 'GET'),
  });
}
// The same names as types, as undici's own declarations give them.
export type Pool = Undici.Pool;
export type Client = Undici.Client;
export declare namespace Client { export type Options = Undici.Client.Options }
export declare namespace Pool { export type Options = Undici.Pool.Options }
export type Agent = Undici.Agent;
export type Dispatcher = Undici.Dispatcher;
export declare namespace Dispatcher {
  export type DispatchOptions = Undici.Dispatcher.DispatchOptions;
  export type DispatchHandler = Undici.Dispatcher.DispatchHandler;
  export type HttpMethod = Undici.Dispatcher.HttpMethod;
}
