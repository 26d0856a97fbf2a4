import { INTERPOLATIONS } from './sim/interpolation.js';

// Request schemas, shaped after the real daemon's pydantic models
// (reference/reachy-mini-daemon-openapi.json). Extra keys are accepted, as
// pydantic does by default.

export const SOURCE_KINDS = ['hf_space', 'dashboard_selection', 'local', 'installed'] as const;

export const appInfoSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    source_kind: { type: 'string', enum: SOURCE_KINDS },
    description: { type: 'string' },
    url: { type: ['string', 'null'] },
    extra: { type: 'object' },
  },
  required: ['name', 'source_kind'],
} as const;

/** The seed's install body: `{"url": "https://…/spaces/owner/name"}`. */
export const seedInstallSchema = {
  type: 'object',
  properties: { url: { type: 'string', minLength: 1 } },
  required: ['url'],
} as const;

const xyzrpy = {
  type: 'object',
  properties: { x: { type: 'number' }, y: { type: 'number' }, z: { type: 'number' }, roll: { type: 'number' }, pitch: { type: 'number' }, yaw: { type: 'number' } },
  additionalProperties: false,
} as const;

const matrix = {
  type: 'object',
  properties: { m: { type: 'array', items: { type: 'number' }, minItems: 16, maxItems: 16 } },
  required: ['m'],
} as const;

const pose = { anyOf: [matrix, xyzrpy, { type: 'null' }] } as const;
const antennas = { anyOf: [{ type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }, { type: 'null' }] } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

export const gotoSchema = {
  type: 'object',
  properties: {
    head_pose: pose,
    antennas,
    body_yaw: nullableNumber,
    duration: { type: 'number', exclusiveMinimum: 0 },
    interpolation: { type: 'string', enum: INTERPOLATIONS, default: 'minjerk' },
  },
  required: ['duration'],
} as const;

export const setTargetSchema = {
  type: 'object',
  properties: {
    target_head_pose: pose,
    target_antennas: antennas,
    target_body_yaw: nullableNumber,
    timestamp: { type: ['string', 'null'] },
  },
} as const;

export const moveUuidSchema = {
  type: 'object',
  properties: { uuid: { type: 'string', format: 'uuid' } },
  required: ['uuid'],
} as const;

export const startupAppSchema = {
  type: 'object',
  properties: { startup_app: { type: ['string', 'null'] } },
} as const;

export const robotNameSchema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['name'],
} as const;

export const boolQuery = (name: string, required: boolean) => ({
  type: 'object',
  properties: { [name]: { type: 'boolean' } },
  ...(required ? { required: [name] } : {}),
});
