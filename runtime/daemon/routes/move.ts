import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import { fromXyzRpy, type Mat4 } from '../sim/pose.js';
import type { PartialTarget } from '../sim/robot.js';
import type { Interpolation } from '../sim/interpolation.js';
import { gotoSchema, moveUuidSchema, setTargetSchema } from '../schemas.js';

// Motion routes (spec §7). Answers carry `clamped` (extra field) when a
// target was outside the robot's limits.

export type WirePose = { m: number[] } | { x?: number; y?: number; z?: number; roll?: number; pitch?: number; yaw?: number } | null | undefined;

export function parsePose(p: WirePose): { head: Mat4 | null; headYaw?: number } {
  if (!p) return { head: null };
  if ('m' in p && Array.isArray(p.m)) return { head: [...p.m] };
  const q = p as { x?: number; y?: number; z?: number; roll?: number; pitch?: number; yaw?: number };
  const v = { x: q.x ?? 0, y: q.y ?? 0, z: q.z ?? 0, roll: q.roll ?? 0, pitch: q.pitch ?? 0, yaw: q.yaw ?? 0 };
  return { head: fromXyzRpy(v), headYaw: v.yaw };
}

export function partial(pose: WirePose, antennas: number[] | null | undefined, bodyYaw: number | null | undefined): PartialTarget {
  const { head, headYaw } = parsePose(pose);
  return { head, headYaw, antennas: antennas ? [antennas[0] ?? 0, antennas[1] ?? 0] : null, bodyYaw: bodyYaw ?? null };
}

export function requireBackend(ctx: DaemonContext): (req: FastifyRequest) => Promise<void> {
  return async () => {
    if (ctx.state !== 'running') throw Errors.backendNotRunning();
  };
}

interface GotoBody { head_pose?: WirePose; antennas?: number[] | null; body_yaw?: number | null; duration: number; interpolation?: Interpolation }
interface SetTargetBody { target_head_pose?: WirePose; target_antennas?: number[] | null; target_body_yaw?: number | null }

export function moveRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const pre = requireBackend(ctx);
  app.post<{ Body: GotoBody }>('/api/move/goto', { schema: { body: gotoSchema }, preHandler: pre }, async (req) => {
    const b = req.body;
    const m = ctx.robot.goto(partial(b.head_pose, b.antennas, b.body_yaw), b.duration, b.interpolation ?? 'minjerk');
    return m.clamped.length ? { uuid: m.uuid, clamped: m.clamped } : { uuid: m.uuid };
  });

  app.post<{ Body: SetTargetBody }>('/api/move/set_target', { schema: { body: setTargetSchema }, preHandler: pre }, async (req) => {
    const b = req.body;
    const r = ctx.robot.setTarget(partial(b.target_head_pose, b.target_antennas, b.target_body_yaw));
    if (r.status === 'ignored') return r;
    return r.clamped.length ? { status: 'ok', clamped: r.clamped } : { status: 'ok' };
  });

  app.post<{ Body: { uuid: string } }>('/api/move/stop', { schema: { body: moveUuidSchema }, preHandler: pre }, async (req) => {
    if (!ctx.robot.cancel(req.body.uuid)) throw Errors.moveNotFound(req.body.uuid);
    return { message: `Stopped move with UUID: ${req.body.uuid}` };
  });

  app.get('/api/move/running', { preHandler: pre }, async () => ctx.robot.running().map((uuid) => ({ uuid })));
  app.post('/api/move/play/wake_up', { preHandler: pre }, async () => ({ uuid: ctx.robot.wakeUp().uuid }));
  app.post('/api/move/play/goto_sleep', { preHandler: pre }, async () => ({ uuid: ctx.robot.gotoSleep().uuid }));

  app.get('/api/move/ws/updates', { websocket: true }, (socket) => {
    const off = ctx.robot.onMove((e) => socket.send(JSON.stringify(e)));
    socket.on('close', off);
  });
}
