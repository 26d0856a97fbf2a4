import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { DaemonContext } from '../context.js';
import { SdkClient } from './client-queue.js';
import { applyCommand, type CommandSink } from './commands.js';
import { parseClientMessage } from './messages.js';
import { daemonStatusFrame, headPose, jointPositions } from './state-messages.js';
import { throttledLog, type ThrottledLog } from '../../../lib/throttled-log.js';

// GET /ws/sdk: the Reachy Mini SDK's WebSocket (spec reachy-sdk-ws.md).
// Nothing is sent on connect; joint_positions + head_pose follow every
// control tick (50 Hz) while the robot loop runs, daemon_status every second.
// A client that leaves changes nothing: targets hold, a goto runs on.

export const STATUS_PERIOD_MS = 1000;
/** Invalid frames are logged at most once per this period per connection, with a count of the others. */
export const INVALID_LOG_PERIOD_MS = 1000;

const INVALID_WORDING = {
  withCount: (line: string, n: number) => `${line} (${n} more invalid message${n === 1 ? '' : 's'} since the last one logged)`,
  summary: (n: number) => `WS client closed: ${n} more invalid message${n === 1 ? '' : 's'} not logged (at most one line a second per client)`,
};

export interface SdkWsStats {
  clients: number;
  commands: number;
  invalid: number;
}

export class SdkHub implements CommandSink {
  readonly clients = new Set<SdkClient>();
  recording: Record<string, unknown>[] | null = null;
  mediaReleased = false;
  readonly stats: SdkWsStats = { clients: 0, commands: 0, invalid: 0 };
  private statusTimer: NodeJS.Timeout | null = null;
  private offTick: (() => void) | null = null;

  constructor(readonly ctx: DaemonContext) {}

  broadcast(frame: string): void {
    for (const c of this.clients) c.push(frame);
  }

  private started = false;

  start(): void {
    this.started = true;
    if (this.clients.size > 0) this.listen();
  }

  stop(): void {
    this.started = false;
    this.unlisten();
  }

  /**
   * The tick listener and the status timer exist only while a client is
   * connected: a fleet of 1,000 robots nobody watches pays for neither.
   */
  private listen(): void {
    this.offTick ??= this.ctx.robot.onTick(() => {
      if (this.ctx.state !== 'running') return;
      this.broadcast(jointPositions(this.ctx));
      this.broadcast(headPose(this.ctx));
    });
    this.statusTimer ??= setInterval(() => this.broadcast(daemonStatusFrame(this.ctx, this.mediaReleased)), STATUS_PERIOD_MS);
  }

  private unlisten(): void {
    this.offTick?.();
    this.offTick = null;
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.statusTimer = null;
  }

  onFrame(data: RawData, logInvalid: (line: string) => void): void {
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.stats.invalid++;
      logInvalid(`WS invalid message: ${parsed.error}`);
      return;
    }
    this.stats.commands++;
    applyCommand(this, parsed.msg);
  }

  attach(socket: WebSocket): void {
    const client = new SdkClient(socket);
    this.clients.add(client);
    this.stats.clients = this.clients.size;
    if (this.started) this.listen();
    const logInvalid: ThrottledLog = throttledLog(this.ctx.log, INVALID_LOG_PERIOD_MS, INVALID_WORDING);
    socket.on('message', (data) => this.onFrame(data, logInvalid));
    socket.on('close', () => {
      logInvalid.flush();
      this.clients.delete(client);
      this.stats.clients = this.clients.size;
      if (this.clients.size === 0) this.unlisten();
    });
  }
}

export function sdkWsRoutes(app: FastifyInstance, ctx: DaemonContext): SdkHub {
  const hub = new SdkHub(ctx);
  app.addHook('onReady', async () => hub.start());
  app.addHook('onClose', async () => hub.stop());
  app.get('/ws/sdk', { websocket: true }, (socket) => {
    if (ctx.state === 'not_initialized' || ctx.state === 'starting') {
      socket.close(1013, 'Daemon not ready');
      return;
    }
    hub.attach(socket);
  });
  // Called by the SDK only when an app asks for no media while the daemon has media.
  app.post('/api/media/release', async () => {
    hub.mediaReleased = true;
    return { status: 'ok' };
  });
  app.post('/api/media/acquire', async () => {
    hub.mediaReleased = false;
    return { status: 'ok' };
  });
  return hub;
}
