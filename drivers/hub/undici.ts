import { createRequire } from 'node:module';
import type * as Undici from 'undici';

// The hub driver's part of undici, loaded alone: undici's index loads all of
// it (fetch, WebSocket, caches, mocks: about 110 modules, 100–150 ms of CPU
// at every start that reaches a driver). The driver sends through
// lib/http-exchange.ts (dispatch() with a handler), so it needs the Agent and
// not undici's request()/stream() API. drivers/daemon/undici.ts does the same
// for the daemon driver; the files are undici's own, so classes and errors
// are the same objects whichever way they were loaded.

const part = createRequire(import.meta.url);

export const Agent = part('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export type Agent = Undici.Agent;
