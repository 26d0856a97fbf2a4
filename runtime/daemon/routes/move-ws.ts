import type { ValidateFunction } from 'ajv';
import { validator } from '../../../lib/validators.js';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { DaemonContext } from '../context.js';
import { setTargetSchema } from '../schemas.js';
import { partial, type WirePose } from './move.js';

// The real daemon's two other motion WebSockets (routers/move.py):
// - `WS /api/move/ws/set_target`: each text frame is a FullBodyTarget (the
//   body of POST /api/move/set_target), applied as that route does (ignored
//   while a move runs); nothing is answered, except a frame it cannot use:
//   `{"status":"error","detail":<why>}`, and the socket stays open.
// - `WS /api/move/ws/raw/write`: binary packets for the motor controller's
//   serial port. Without one (the mockup and MuJoCo backends, and this
//   simulated robot) the backend raises on the first packet and the socket
//   closes with 1011, the daemon's own words as the reason.
// Both refuse to open while the backend is not running, as the real
// dependency does (HTTP 503 there; here a close with its message).

const NO_SERIAL_PORT = 'The method write_raw_packet is only available for the real robot backend.';
const INTERNAL_ERROR = 1011;

interface Target { target_head_pose?: WirePose; target_antennas?: number[] | null; target_body_yaw?: number | null }

/** FullBodyTarget: the body of POST /api/move/set_target, by the one validator registry (lib/validators.ts). */
const targetValidator = (): ValidateFunction => validator('https://robotctl.dev/schema/daemon/full-body-target.json',
  () => ({ $id: 'https://robotctl.dev/schema/daemon/full-body-target.json', ...setTargetSchema }));

/** Why a frame is not a FullBodyTarget, in pydantic's words; null when it is one. */
function problem(text: string): { target: Target } | { detail: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return { detail: `1 validation error for FullBodyTarget\n  Invalid JSON: ${(err as Error).message}` };
  }
  const check = targetValidator();
  if (check(data)) return { target: data as Target };
  const e = check.errors?.[0];
  const loc = (e?.instancePath ?? '').split('/').filter(Boolean).join('.') || '(root)';
  return { detail: `1 validation error for FullBodyTarget\n${loc}\n  ${e?.message ?? 'invalid'}` };
}

function refuseUnlessRunning(ctx: DaemonContext, socket: WebSocket): boolean {
  if (ctx.state === 'running') return false;
  socket.close(INTERNAL_ERROR, 'Backend not running');
  return true;
}

export function moveSocketRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  app.get('/api/move/ws/set_target', { websocket: true }, (socket) => {
    if (refuseUnlessRunning(ctx, socket)) return;
    socket.on('message', (data, binary) => {
      const parsed = problem(binary ? '' : data.toString());
      if ('detail' in parsed) {
        socket.send(JSON.stringify({ status: 'error', detail: parsed.detail }));
        return;
      }
      const t = parsed.target;
      ctx.robot.setTarget(partial(t.target_head_pose, t.target_antennas, t.target_body_yaw));
    });
  });

  app.get('/api/move/ws/raw/write', { websocket: true }, (socket) => {
    if (refuseUnlessRunning(ctx, socket)) return;
    socket.on('message', () => {
      ctx.log(`WS /api/move/ws/raw/write: ${NO_SERIAL_PORT}`);
      socket.close(INTERNAL_ERROR, NO_SERIAL_PORT);
    });
  });
}
