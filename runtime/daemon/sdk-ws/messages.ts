import { validator } from '../../../lib/validators.js';

// Client → server messages of /ws/sdk (spec reachy-sdk-ws.md, "Client →
// server"), validated once per frame by one discriminated union
// (lib/validators.ts). Types
// the real server also parses but that only the WebRTC transport answers are
// accepted and ignored, like there.

const num = { type: 'number' } as const;
const nums = (n: number) => ({ type: 'array', items: num, minItems: n, maxItems: n }) as const;
const nullable = <T extends object>(s: T) => ({ anyOf: [s, { type: 'null' }] }) as const;
const bool = { type: 'boolean' } as const;

function msg(type: string, properties: Record<string, unknown> = {}, required: string[] = []): object {
  return { type: 'object', properties: { type: { const: type }, ...properties }, required: ['type', ...required] };
}

const gotoReq = {
  type: 'object',
  properties: {
    head: nullable(nums(16)), antennas: nullable(nums(2)), body_yaw: nullable(num),
    duration: num, method: { enum: ['linear', 'minjerk', 'ease_in_out', 'cartoon'] },
  },
  required: ['duration'],
} as const;
const playMoveReq = { type: 'object', properties: { move_name: { type: 'string' } }, required: ['move_name'] } as const;

/** Parsed by the real server, answered only on the WebRTC data channel. */
export const SILENT_TYPES = ['goto_target', 'wake_up', 'goto_sleep', 'play_sound', 'get_state', 'get_version', 'set_volume',
  'upload_move', 'upload_move_chunk', 'play_uploaded_move', 'stop_uploaded_move', 'subscribe_logs', 'unsubscribe_logs'] as const;

const SCHEMA_ID = 'https://robotctl.dev/schema/sdk-ws-client-message.json';

const schema = {
  $id: SCHEMA_ID,
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [
    msg('set_automatic_body_yaw', { enabled: bool }, ['enabled']),
    msg('set_full_target', { head: nullable(nums(16)), antennas: nullable(nums(2)), body_yaw: nullable(num) }),
    msg('set_target', { head: nums(16) }, ['head']),
    msg('set_antennas', { antennas: nums(2) }, ['antennas']),
    msg('set_body_yaw', { body_yaw: num }, ['body_yaw']),
    msg('set_head_joints', { joints: nums(7) }, ['joints']),
    msg('task', { uuid: { type: 'string', minLength: 1 }, req: { anyOf: [gotoReq, playMoveReq] }, timestamp: { type: 'string' } }, ['uuid', 'req']),
    msg('start_recording'),
    msg('stop_recording'),
    msg('append_record', { record: { type: 'object' } }, ['record']),
    msg('set_torque', { on: bool, ids: nullable({ type: 'array', items: { type: 'string' } }) }, ['on']),
    msg('set_gravity_compensation', { enabled: bool }, ['enabled']),
    msg('set_wobbling', { enabled: bool }, ['enabled']),
    msg('set_speech_offsets', { offsets: nums(6) }, ['offsets']),
    msg('set_head_tracking', { enabled: bool, weight: num }, ['enabled']),
    ...SILENT_TYPES.map((t) => msg(t)),
  ],
} as const;

export interface GotoRequest {
  head?: number[] | null;
  antennas?: [number, number] | null;
  body_yaw?: number | null;
  duration: number;
  method?: 'linear' | 'minjerk' | 'ease_in_out' | 'cartoon';
}

export type ClientMessage =
  | { type: 'set_automatic_body_yaw'; enabled: boolean }
  | { type: 'set_full_target'; head?: number[] | null; antennas?: [number, number] | null; body_yaw?: number | null }
  | { type: 'set_target'; head: number[] }
  | { type: 'set_antennas'; antennas: [number, number] }
  | { type: 'set_body_yaw'; body_yaw: number }
  | { type: 'set_head_joints'; joints: number[] }
  | { type: 'task'; uuid: string; req: GotoRequest | { move_name: string }; timestamp?: string }
  | { type: 'start_recording' }
  | { type: 'stop_recording' }
  | { type: 'append_record'; record: Record<string, unknown> }
  | { type: 'set_torque'; on: boolean; ids?: string[] | null }
  | { type: 'set_gravity_compensation'; enabled: boolean }
  | { type: 'set_wobbling'; enabled: boolean }
  | { type: 'set_speech_offsets'; offsets: number[] }
  | { type: 'set_head_tracking'; enabled: boolean; weight?: number }
  | { type: (typeof SILENT_TYPES)[number] };

export type Parsed = { ok: true; msg: ClientMessage } | { ok: false; error: string };

/** One text frame → a command, or why it is invalid (logged, never fatal). */
export function parseClientMessage(text: string): Parsed {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, error: `not JSON: ${text.slice(0, 80)}` };
  }
  // Compiled on the first frame: most robots of a fleet never see an SDK client.
  const validate = validator(SCHEMA_ID, () => schema);
  if (!validate(data)) {
    const e = validate.errors?.[0];
    return { ok: false, error: `${e?.instancePath || '/'} ${e?.message ?? 'invalid'}: ${text.slice(0, 80)}` };
  }
  return { ok: true, msg: data as ClientMessage };
}
