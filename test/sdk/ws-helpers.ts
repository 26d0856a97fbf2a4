import { WebSocket } from 'ws';

// A raw /ws/sdk client for tests: records every frame with its arrival time
// and lets a test await the next frame that matches.

export interface Frame {
  at: number;
  msg: Record<string, unknown> & { type: string };
}

export class SdkWsClient {
  readonly frames: Frame[] = [];
  readonly opened: number;
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }[] = [];

  private constructor(readonly ws: WebSocket) {
    this.opened = performance.now();
    ws.on('message', (data) => {
      const f: Frame = { at: performance.now(), msg: JSON.parse(String(data)) as Frame['msg'] };
      this.frames.push(f);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(f)) return true;
        clearTimeout(w.timer);
        w.resolve(f);
        return false;
      });
    });
  }

  static async connect(baseUrl: string, opts: { perMessageDeflate?: boolean } = {}): Promise<SdkWsClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws/sdk`, { perMessageDeflate: opts.perMessageDeflate ?? false });
    const client = new SdkWsClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(msg: Record<string, unknown> | string): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The next frame (after now, or already received when `past`) that matches. */
  next(pred: (f: Frame) => boolean, timeoutMs = 5000, what = 'frame'): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push({ pred, resolve, reject, timer });
    });
  }

  ofType(type: string): Frame[] {
    return this.frames.filter((f) => f.msg.type === type);
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((r) => this.ws.once('close', r));
    this.ws.close();
    await closed;
  }
}

export function type(t: string): (f: Frame) => boolean {
  return (f) => f.msg.type === t;
}

/** 16 floats of a head pose: yaw (rad) about z, translation z (m). */
export function yawPose(yaw: number, z = 0): number[] {
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  return [c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, z, 0, 0, 0, 1];
}
