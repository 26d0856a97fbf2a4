import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDaemon } from '../../runtime/daemon/server.js';
import type { PartialTarget } from '../../runtime/daemon/sim/robot.js';
import type { Interpolation } from '../../runtime/daemon/sim/interpolation.js';
import { until } from '../helpers/wait.js';

// The real simulated daemon (runtime/daemon, on port 0) whose robot records
// what an app's reachy_mini client made it do: every applied set_target and
// every goto, in order, whatever /ws/sdk command carried it. The daemon
// still decides what is valid, as on a robot.

export type Call =
  | { kind: 'set_target'; at: number; target: PartialTarget }
  | { kind: 'goto'; at: number; target: PartialTarget; duration: number; interpolation: Interpolation };

export interface Recorder {
  url: string;
  calls: Call[];
  count(kind: Call['kind']): number;
  /** Resolves when `kind` was recorded `n` times. */
  waitFor(kind: Call['kind'], n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRecorder(): Promise<Recorder> {
  const appsDir = mkdtempSync(join(tmpdir(), 'robotctl-recorder-'));
  const daemon = await buildDaemon({ appsDir, sim: true, port: 0, startupApp: null });
  const calls: Call[] = [];
  const robot = daemon.daemon.robot;
  const setTarget = robot.setTarget.bind(robot);
  const goto = robot.goto.bind(robot);
  robot.setTarget = (target) => {
    calls.push({ kind: 'set_target', at: performance.now(), target });
    return setTarget(target);
  };
  robot.goto = (target, duration, interpolation, kind) => {
    if (kind === 'goto') calls.push({ kind: 'goto', at: performance.now(), target, duration, interpolation });
    return goto(target, duration, interpolation, kind);
  };
  const url = await daemon.listen({ host: '127.0.0.1', port: 0 });
  const count = (kind: Call['kind']): number => calls.filter((c) => c.kind === kind).length;
  return {
    url,
    calls,
    count,
    async waitFor(kind, n, timeoutMs = 20_000) {
      await until(() => count(kind) >= n, timeoutMs, `${n} × ${kind}`);
    },
    async close() {
      await daemon.close();
      rmSync(appsDir, { recursive: true, force: true });
    },
  };
}
