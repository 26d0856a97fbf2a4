import { randomUUID } from 'node:crypto';
import { poseVersion, readPose, type ControlSlot } from './control-slot.js';
import type { Target } from './limits.js';
import type { MoveSpec } from './motion.js';

// One move as the main thread keeps it: its uuid and kind, the promise its
// caller awaits, and the pose the control thread last wrote for it, read
// from the robot's slot only when the thread has written a new one.

export type MoveEventType = 'move_started' | 'move_completed' | 'move_failed' | 'move_cancelled';

export class RunningMove {
  readonly uuid = randomUUID();
  readonly finished: Promise<MoveEventType>;
  private settle: (t: MoveEventType) => void = () => {};
  private pose: Target;
  private version = -1;

  constructor(readonly kind: string, readonly spec: MoveSpec) {
    this.pose = spec.from;
    this.finished = new Promise((resolve) => { this.settle = resolve; });
  }

  /** The control thread's latest pose of this move; its start until the thread has ticked it. */
  poseIn(slot: ControlSlot): Target {
    const version = poseVersion(slot);
    if (version !== this.version) {
      // Null while the thread writes (or has not reached this move): the last pose read stands.
      const read = readPose(slot, this.spec.seq);
      if (read) {
        this.pose = read;
        this.version = version;
      }
    }
    return this.pose;
  }

  end(type: MoveEventType): void {
    this.settle(type);
  }
}
