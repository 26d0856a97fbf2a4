import type { Config } from '../../schema/types.js';
import type { RobotAddress } from '../types.js';
import type { DaemonClient } from '../../drivers/daemon/types.js';
import type { AppStateFollower } from '../../drivers/daemon/app-state.js';
import type { AppStatus } from '../../lib/wire/daemon.js';

// The agent follows each robot's current app between runs, so that a change
// on a robot (a manual stop, a crash, a reinstall) shows on /status and the
// fleet page within a second or two instead of at the next drift check. The
// daemon driver does the following (drivers/daemon/app-state.ts): pushed by
// robotctl's simulator, polled on Pollen's daemon. Polls are spread so that
// the fleet costs at most MAX_POLLS_PER_S requests a second in all: every
// second up to 50 robots, then less often per robot.

export const MAX_POLLS_PER_S = 50;
const MIN_POLL_MS = 1000;

/** How often each robot is polled when `robots` are: every second up to 50, then spread to keep 50 a second. */
export function pollIntervalMs(robots: number): number {
  return Math.max(MIN_POLL_MS, Math.ceil((robots * 1000) / MAX_POLLS_PER_S));
}

export interface LiveApp {
  /** The current app as the robot last told; null: none. */
  current: AppStatus | null;
  /** Why it could not be read, while it cannot; null when fine. */
  error: string | null;
}

export class AppWatch {
  private readonly followers = new Map<string, { url: string; follower: AppStateFollower }>();
  private readonly live = new Map<string, LiveApp>();

  /** `onChange`: a robot's app changed (the agent's status is stale). */
  constructor(private readonly onChange: (robot: string) => void) {}

  /**
   * Follow the robots of `config` (a reload may add, drop or move one). A robot
   * declared by hardware_id alone has no address until a run finds it over
   * mDNS: it is seen at each run, not followed between them.
   */
  sync(config: Config, daemon: (robot: RobotAddress) => DaemonClient): void {
    const robots = Object.values(config.robots).filter((r): r is typeof r & RobotAddress => r.url !== null);
    const pollMs = pollIntervalMs(robots.length);
    const wanted = new Set(robots.map((r) => r.name));
    for (const [name, f] of this.followers) {
      if (wanted.has(name) && config.robots[name]?.url === f.url) continue;
      f.follower.close();
      this.followers.delete(name);
      this.live.delete(name);
    }
    for (const [i, robot] of robots.entries()) {
      if (this.followers.has(robot.name)) continue;
      const follower = daemon(robot).followAppState({
        // Started 20 ms apart, so their polls stay spread: 50 a second at most.
        pollMs, startAfterMs: Math.round((i * 1000) / MAX_POLLS_PER_S) % pollMs,
        onStatus: (current) => { this.live.set(robot.name, { current, error: null }); this.onChange(robot.name); },
        onError: (error) => {
          const was = this.live.get(robot.name);
          this.live.set(robot.name, { current: was?.current ?? null, error });
          this.onChange(robot.name);
        },
      });
      this.followers.set(robot.name, { url: robot.url, follower });
    }
  }

  /** What each followed robot last told. */
  snapshot(): ReadonlyMap<string, LiveApp> {
    return this.live;
  }

  close(): void {
    for (const f of this.followers.values()) f.follower.close();
    this.followers.clear();
    this.live.clear();
  }
}
