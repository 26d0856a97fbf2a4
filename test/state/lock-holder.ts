// Child process for lock tests (not a test itself): takes the lock on
// argv[2], says so, then holds it until killed or until stdin closes.
import { acquireLock } from '../../state/lock.js';

const statePath = process.argv[2];
if (statePath) {
  const lock = await acquireLock(statePath, { timeoutMs: 5000, operation: 'apply' });
  process.stdout.write(`locked ${process.pid}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => { void lock.release().then(() => process.exit(0)); });
}
