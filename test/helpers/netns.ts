import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Tests that multicast (mDNS) run in a private network namespace: there they
// neither hear nor disturb anything else on the machine (other engineers'
// robots, a real LAN), and loopback carries multicast (MACHINE.md):
//   unshare -n; ip link set lo up; ip link set lo multicast on; ip route add 224.0.0.0/4 dev lo
// A test file calls inPrivateNetwork(import.meta.url) before it imports tap:
// outside, it re-runs the file inside a new namespace, hands the inner run's
// TAP output and exit code to tap, and returns false; inside, it returns
// true and the file runs its tests. Where `unshare -n` is not permitted (not
// root, no user namespaces) the file is skipped, saying why. Its children
// (robotctl daemon, robots discover) inherit the namespace.

const MARK = 'ROBOTCTL_TEST_NETNS';
const SETUP = 'ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo';

/** Whether this process runs inside the private namespace a test made. */
export const inNamespace = (): boolean => process.env[MARK] === '1';

function whyNot(): string | null {
  const probe = spawnSync('unshare', ['-n', 'bash', '-c', SETUP], { encoding: 'utf8' });
  if (probe.error) return `unshare is not available (${probe.error.message})`;
  if (probe.status !== 0) return `unshare -n with multicast on loopback failed: ${(probe.stderr || `exit ${String(probe.status)}`).trim().split('\n')[0]}`;
  return null;
}

export async function inPrivateNetwork(fileUrl: string): Promise<boolean> {
  if (inNamespace()) return true;
  const reason = whyNot();
  if (reason) {
    process.stdout.write(`TAP version 14\n1..0 # SKIP needs a private network namespace: ${reason}\n`);
    return false;
  }
  // The inner run is a test process as this one is: processinfo-off.mjs came
  // to this one through NODE_OPTIONS, which ts-cache.mjs clears for children,
  // so it is named first again. Without it the inner process loaded tap's
  // process tracker and all of tap's modules instead of the bundle (about
  // 0.3 s of CPU per file; test/setup/tap-hooks.mjs).
  const off = `--import=${new URL('../setup/processinfo-off.mjs', import.meta.url).href}`;
  const child = spawn('unshare', ['-n', 'bash', '-c', `${SETUP} && exec "$@"`, 'netns', process.execPath, off, ...process.execArgv, fileURLToPath(fileUrl)], {
    env: { ...process.env, [MARK]: '1' }, stdio: ['ignore', 'inherit', 'inherit'],
  });
  // tap's timeout (a signal, or a message on its IPC channel) ends the inner run too.
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGALRM', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig === 'SIGALRM' ? 'SIGTERM' : sig));
  process.channel?.unref();
  const code = await new Promise<number>((resolve) => child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  process.exitCode = code;
  return false;
}
