import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import { toXyzRpy } from '../sim/pose.js';
import { MOTOR_MODES, type MotorMode } from '../sim/constants.js';
import { requireBackend } from './move.js';

// State and motors routes (spec §7).

type Flags = Record<string, boolean | number | undefined>;

const FLAGS = ['with_control_mode', 'with_head_pose', 'with_target_head_pose', 'with_head_joints', 'with_target_head_joints', 'with_body_yaw',
  'with_target_body_yaw', 'with_antenna_positions', 'with_target_antenna_positions', 'with_passive_joints', 'with_doa', 'use_pose_matrix'] as const;
const ON_BY_DEFAULT = new Set(['with_control_mode', 'with_head_pose', 'with_body_yaw', 'with_antenna_positions']);

const fullQuery = {
  type: 'object',
  properties: { ...Object.fromEntries(FLAGS.map((f) => [f, { type: 'boolean' }])), frequency: { type: 'number', exclusiveMinimum: 0 } },
} as const;

function headPose(ctx: DaemonContext, matrix: boolean): unknown {
  return matrix ? { m: ctx.robot.present.head } : toXyzRpy(ctx.robot.present.head);
}

export function fullState(ctx: DaemonContext, q: Flags): Record<string, unknown> {
  const on = (f: string): boolean => (q[f] === undefined ? ON_BY_DEFAULT.has(f) : q[f] === true);
  const p = ctx.robot.present;
  const out: Record<string, unknown> = {};
  if (on('with_control_mode')) out.control_mode = ctx.robot.motorMode;
  // The simulated robot applies targets at once: present and target agree.
  if (on('with_head_pose')) out.head_pose = headPose(ctx, on('use_pose_matrix'));
  if (on('with_target_head_pose')) out.target_head_pose = headPose(ctx, on('use_pose_matrix'));
  if (on('with_body_yaw')) out.body_yaw = p.bodyYaw;
  if (on('with_target_body_yaw')) out.target_body_yaw = p.bodyYaw;
  if (on('with_antenna_positions')) out.antennas_position = [...p.antennas];
  if (on('with_target_antenna_positions')) out.target_antennas_position = [...p.antennas];
  out.timestamp = new Date().toISOString();
  return out;
}

export function stateRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const pre = requireBackend(ctx);
  app.get<{ Querystring: Flags }>('/api/state/full', { schema: { querystring: fullQuery }, preHandler: pre }, async (req) => fullState(ctx, req.query));
  app.get<{ Querystring: Flags }>('/api/state/present_head_pose', { schema: { querystring: fullQuery }, preHandler: pre },
    async (req) => headPose(ctx, req.query.use_pose_matrix === true));
  app.get('/api/state/present_body_yaw', { preHandler: pre }, async () => ctx.robot.present.bodyYaw);
  app.get('/api/state/present_antenna_joint_positions', { preHandler: pre }, async () => [...ctx.robot.present.antennas]);

  app.get<{ Querystring: Flags }>('/api/state/ws/full', { websocket: true, schema: { querystring: fullQuery } }, (socket, req) => {
    const hz = typeof req.query.frequency === 'number' ? req.query.frequency : 10;
    const timer = setInterval(() => {
      if (ctx.state === 'running') socket.send(JSON.stringify(fullState(ctx, req.query)));
    }, Math.max(1, 1000 / hz));
    socket.on('close', () => clearInterval(timer));
  });

  app.get('/api/motors/status', { preHandler: pre }, async () => ({ mode: ctx.robot.motorMode }));
  app.post<{ Params: { mode: MotorMode } }>('/api/motors/set_mode/:mode', {
    schema: { params: { type: 'object', properties: { mode: { type: 'string', enum: MOTOR_MODES } }, required: ['mode'] } },
    preHandler: pre,
  }, async (req) => {
    if (!MOTOR_MODES.includes(req.params.mode)) throw Errors.badRequest(`Unknown motor mode '${req.params.mode}'`);
    ctx.robot.motorMode = req.params.mode;
    return { status: `motors changed to ${req.params.mode} mode` };
  });
}
