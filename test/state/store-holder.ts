// Child process for the kill -9 tests (not a test itself): opens the backend
// named by argv[2] (a --state spec), takes the state lock, says so, and holds
// it until killed.
import { openStore } from '../../state/open.js';
import { parseSpec } from '../../state/spec.js';

const spec = process.argv[2];
if (spec) {
  const parsed = parseSpec(spec, process.cwd(), 'argv');
  const store = await openStore(parsed.backend === 'hub' ? { ...parsed, leaseMs: Number(process.env.LEASE_MS ?? 1500) } : parsed, { env: process.env });
  await store.lock({ timeoutMs: 5000, operation: 'apply' });
  process.stdout.write(`locked ${process.pid}\n`);
  process.stdin.resume();
}
