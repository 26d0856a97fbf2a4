import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

// The simulated robot's hardware id. The real daemon's is the first 16 hex
// digits of the SHA-256 of its audio device's USB serial (utils/hardware_id.py):
// the same across reboots and reinstalls. A simulated robot's "serial" is its
// apps folder, so its id is the same across restarts and renames, and differs
// between the robots of one `--robots N` process (each has its own folder).

export function simHardwareId(appsDir: string): string {
  return createHash('sha256').update(`robotctl simulated robot ${resolve(appsDir)}`).digest('hex').slice(0, 16);
}
