import { createRequire } from 'node:module';
import type * as Undici from 'undici';

// The hub driver's part of undici, loaded alone: undici's index loads all of
// it (fetch, WebSocket, caches, mocks: about 110 modules, 100–150 ms of CPU
// at every start that reaches a driver). drivers/daemon/undici.ts does the
// same for the daemon driver; the files are undici's own, so classes and
// errors are the same objects whichever way they were loaded.

const part = createRequire(import.meta.url);
// request() and the other calls on every dispatcher, as undici's index sets them.
Object.assign((part('undici/lib/dispatcher/dispatcher.js') as { prototype: object }).prototype, part('undici/lib/api/index.js') as object);

export const Agent = part('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export type Agent = Undici.Agent;
