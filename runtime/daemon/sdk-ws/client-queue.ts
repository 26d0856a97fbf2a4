import type { WebSocket } from 'ws';

// One connected SDK client: a bounded queue of outgoing frames (100, the
// real server's asyncio.Queue size) drained one send at a time. When the
// client reads slower than the stream, the oldest frame is dropped so the
// newest fits, as the real server does.

export const QUEUE_MAX = 100;

export class SdkClient {
  private readonly queue: string[] = [];
  private sending = false;
  dropped = 0;
  sent = 0;

  constructor(private readonly socket: WebSocket) {}

  get open(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  push(frame: string): void {
    if (!this.open) return;
    if (this.queue.length >= QUEUE_MAX) {
      this.queue.shift();
      this.dropped++;
    }
    this.queue.push(frame);
    this.pump();
  }

  private pump(): void {
    if (this.sending || !this.open) return;
    const frame = this.queue.shift();
    if (frame === undefined) return;
    this.sending = true;
    this.socket.send(frame, () => {
      this.sending = false;
      this.sent++;
      this.pump();
    });
  }
}
