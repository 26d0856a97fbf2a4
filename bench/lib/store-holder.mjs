// Child process of bench/state-backends.mjs (not a benchmark itself): opens
// the backend named by argv[2] (a --state spec), takes the state lock, says
// `locked <pid>` and holds it (renewing a hub lease) until it is killed.
const { openStore } = await import('../../dist/state/open.js');
const { parseSpec } = await import('../../dist/state/spec.js');

const parsed = parseSpec(process.argv[2], process.cwd(), 'argv');
const leaseMs = Number(process.env.LEASE_MS ?? 10_000);
const store = await openStore(parsed.backend === 'hub' ? { ...parsed, leaseMs } : parsed, { env: process.env });
await store.lock({ timeoutMs: 5000, operation: 'apply' });
process.stdout.write(`locked ${process.pid}\n`);
process.stdin.resume();
