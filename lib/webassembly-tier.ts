import { setFlagsFromString } from 'node:v8';

// undici parses HTTP with llhttp compiled to WebAssembly. Reading a large
// answer (the hub's list of 10,000 webhooks is 3 MB) made V8 recompile
// llhttp's parser with its optimising compiler on a background thread, which
// outlasted the command, and Node joins that thread before the process exits:
// 110 ms more for `robotctl diff` of 10,000 adopted webhooks (whole process
// 639 -> 544 ms, medians of 9), and the second core busy meanwhile, for no
// faster parsing in a run that was already over. On V8's first WebAssembly
// tier (Liftoff) the command itself took the same time (476 / 479 ms).
//
// The flag concerns WebAssembly alone (Node's own HTTP, which the servers
// use, is native code). It is set by the CLI's session (plan, diff, status,
// apply, import) before a driver's first connection compiles llhttp, once
// the CLI's code cache is loaded: V8 rejects cached code made under other
// flags, so the build makes its caches without it (cli/build-bundle.mjs) and
// a test checks a fresh process accepts them. validate and --help never load
// node:v8 for it.

let set = false;

/** Keeps the WebAssembly this process compiles from now on (undici's llhttp) on V8's first tier. */
export function firstTierWebAssembly(): void {
  if (set) return;
  set = true;
  setFlagsFromString('--liftoff-only');
}
