import { setFlagsFromString } from 'node:v8';

// Keeps the WebAssembly a CLI command compiles on V8's first tier (Liftoff).
// undici parses HTTP with llhttp compiled to WebAssembly; left to its
// defaults, V8 recompiles llhttp with its optimising compiler on a background
// thread while the command runs, and Node waits for that thread before the
// process exits: CPU and memory spent for a run that is already over.
// bench/webassembly-tier.mjs measures what the flag saves on `robotctl plan`
// and `diff`.
//
// Only WebAssembly is concerned (Node's own HTTP, which the servers use, is
// native code). The CLI's session (plan, diff, status, apply, import) sets it
// before a driver's first connection compiles llhttp and after the CLI's code
// cache is loaded: V8 rejects cached code made under other flags, and the
// build makes the cache with V8's defaults. The agent, which runs on, keeps them.

let set = false;

/** Keeps the WebAssembly this process compiles from now on (undici's llhttp) on V8's first tier. */
export function firstTierWebAssembly(): void {
  if (set) return;
  set = true;
  setFlagsFromString('--liftoff-only');
}
