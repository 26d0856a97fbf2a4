import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { DaemonContext } from '../context.js';
import { APP_STATE_WS_PATH, type RobotctlExtensions } from '../../../lib/wire/daemon.js';

// robotctl's extension (lib/wire/daemon.ts; Pollen's daemon has no such
// socket): `WS /api/apps/ws/current-app-status` sends the current app's
// status (the JSON of GET /api/apps/current-app-status) when it connects and
// at every change: a crash, a stop, a start, a reinstall's restart. The
// robotctl agent follows it to keep its fleet page live. The status is
// compared every CHECK_MS while a socket is open (nothing runs otherwise):
// the app manager's state changes in many places, and a check of a small
// object costs nothing next to a message.

const CHECK_MS = 100;

/** Whether this daemon answers with robotctl's extensions (not when it plays Pollen's daemon). */
export function extensionsOn(ctx: DaemonContext): boolean {
  return ctx.extensions;
}

/** The status field that announces the extensions, or nothing when they are off. */
export function extensionsField(ctx: DaemonContext): { robotctl_extensions?: RobotctlExtensions } {
  return extensionsOn(ctx) ? { robotctl_extensions: { install_revision: true, app_state_ws: APP_STATE_WS_PATH } } : {};
}

export function appStateRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  if (!extensionsOn(ctx)) return;
  const sockets = new Set<WebSocket>();
  let last = '';
  let timer: NodeJS.Timeout | null = null;
  const current = (): string => JSON.stringify(ctx.apps.status() ?? null);
  const check = (): void => {
    const now = current();
    if (now === last) return;
    last = now;
    for (const s of sockets) s.send(now);
  };
  app.get(APP_STATE_WS_PATH, { websocket: true }, (socket) => {
    sockets.add(socket);
    if (timer === null) {
      last = current();
      timer = setInterval(check, CHECK_MS);
      timer.unref();
    }
    socket.send(last);
    socket.on('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && timer !== null) {
        clearInterval(timer);
        timer = null;
      }
    });
  });
  app.addHook('onClose', async () => {
    if (timer !== null) clearInterval(timer);
    for (const s of sockets) s.close();
  });
}
