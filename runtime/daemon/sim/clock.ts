// The control loop's clock: monotonic milliseconds that read the same on
// every thread of the process. performance.now() counts from each thread's
// own origin, so a move's start taken on the main thread would be off by the
// worker's start-up when the control thread compared it with its own now.

export function monotonicMs(): number {
  const [s, ns] = process.hrtime();
  return s * 1e3 + ns / 1e6;
}
