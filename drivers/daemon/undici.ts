import { createRequire } from 'node:module';
import type * as Undici from 'undici';

// The parts of undici the daemon driver uses, loaded alone (see
// drivers/hub/undici.ts for why): a CLI start loads about 30 of undici's
// modules instead of 110. Same files, same classes: a test or a runtime that
// imports 'undici' itself shares them (instanceof holds).

const load = createRequire(import.meta.url);

// No request()/stream() API on the dispatchers: the driver dispatches with a
// handler of its own (exchange.ts).
export const Dispatcher = load('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Pool = load('undici/lib/dispatcher/pool.js') as typeof Undici.Pool;
export const Client = load('undici/lib/dispatcher/client.js') as typeof Undici.Client;

export type WebSocket = Undici.WebSocket;
let WebSocketClass: typeof Undici.WebSocket | undefined;

/** undici's WebSocket, loaded on first use: only a job waited on needs it (job-end.ts), a drift check never. */
export function webSocketClass(): typeof Undici.WebSocket {
  WebSocketClass ??= (load('undici/lib/web/websocket/websocket.js') as { WebSocket: typeof Undici.WebSocket }).WebSocket;
  return WebSocketClass;
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
  export type DispatchController = Undici.Dispatcher.DispatchController;
}
