import type { DaemonContext } from '../context.js';
import type { PartialTarget } from '../sim/robot.js';
import type { ClientMessage, GotoRequest } from './messages.js';
import { naiveLocalIso } from './state-messages.js';

// What each /ws/sdk command does to the simulated robot (the real
// Backend.process_command). Fire-and-forget: nothing is answered, except a
// goto task's task_progress and stop_recording's recorded_data, which go to
// every client.

export interface CommandSink {
  ctx: DaemonContext;
  broadcast(frame: string): void;
  /** The recording buffer; null when not recording. */
  recording: Record<string, unknown>[] | null;
}

const GUARDED = new Set(['set_full_target', 'set_target', 'set_antennas', 'set_body_yaw', 'set_head_joints']);

function pair(a: number[] | null | undefined): [number, number] | null {
  return a ? [a[0] ?? 0, a[1] ?? 0] : null;
}

function target(head: number[] | null | undefined, antennas: number[] | null | undefined, bodyYaw: number | null | undefined): PartialTarget {
  return { head: head ? [...head] : null, antennas: pair(antennas), bodyYaw: bodyYaw ?? null };
}

function motion(sink: CommandSink, msg: ClientMessage): void {
  const robot = sink.ctx.robot;
  switch (msg.type) {
    case 'set_full_target': robot.setTarget(target(msg.head, msg.antennas, msg.body_yaw)); break;
    case 'set_target': robot.setTarget(target(msg.head, null, null)); break;
    case 'set_antennas': robot.setTarget(target(null, msg.antennas, null)); break;
    case 'set_body_yaw': robot.setTarget(target(null, null, msg.body_yaw)); break;
    // Joint 0 is the body yaw; the six Stewart motors need a kinematics model the simulator does not have.
    case 'set_head_joints': robot.setTarget(target(null, null, msg.joints[0])); break;
    default: break;
  }
}

function progressFrame(uuid: string, error: string | null): string {
  return JSON.stringify({ type: 'task_progress', uuid, finished: true, error, timestamp: naiveLocalIso() });
}

/** A goto task: runs in the background, its end is broadcast to every client. */
function startTask(sink: CommandSink, uuid: string, req: GotoRequest | { move_name: string }): void {
  const { ctx } = sink;
  if ('move_name' in req) {
    // The real server logs this and never answers: the client times out.
    ctx.log('PlayMoveTaskRequest not yet implemented over WS');
    return;
  }
  if (ctx.robot.moving) {
    ctx.log('Ignoring play_move request: a move is already running');
    sink.broadcast(progressFrame(uuid, null));
    return;
  }
  const move = ctx.robot.goto(target(req.head, req.antennas, req.body_yaw), Math.max(0, req.duration), req.method ?? 'minjerk', 'goto');
  void move.finished.then((how) => sink.broadcast(progressFrame(uuid, how === 'move_completed' ? null : 'Move cancelled')));
}

function settings(sink: CommandSink, msg: ClientMessage): void {
  const robot = sink.ctx.robot;
  switch (msg.type) {
    case 'set_automatic_body_yaw': robot.automaticBodyYaw = msg.enabled; break;
    case 'set_torque': robot.motorMode = msg.on ? 'enabled' : 'disabled'; break;
    case 'set_gravity_compensation': robot.motorMode = msg.enabled ? 'gravity_compensation' : 'enabled'; break;
    case 'start_recording': sink.recording = []; break;
    case 'append_record': sink.recording?.push(msg.record); break;
    case 'stop_recording':
      sink.broadcast(JSON.stringify({ type: 'recorded_data', data: sink.recording ?? [] }));
      sink.recording = null;
      break;
    // Daemon-side motion offsets (wobbling, speech, head tracking) need the
    // real robot's audio and camera: accepted, no effect on the simulator.
    default: break;
  }
}

export function applyCommand(sink: CommandSink, msg: ClientMessage): void {
  if (GUARDED.has(msg.type)) {
    if (sink.ctx.robot.moving) {
      sink.ctx.log(`Ignoring ${msg.type} command: a move is currently running.`);
      return;
    }
    motion(sink, msg);
    return;
  }
  if (msg.type === 'task') startTask(sink, msg.uuid, msg.req);
  else settings(sink, msg);
}
