import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { HttpError } from '../errors.js';
import { requireBackend } from './move.js';
import { soundRoutes } from './sounds.js';
import { recordedMoveRoutes } from './recorded-moves.js';
import { MESHES, urdf } from '../sim/model.js';

// The real daemon's hardware routes (reference OpenAPI: audio, camera,
// volume, media, kinematics, direction of arrival, recorded moves), as it
// answers them on a robot without the hardware (its mockup backend, no
// media): volumes kept in memory, media unavailable, head tracking a no-op
// that says so, the audio board's 503, the camera it falls back to. What
// needs no hardware works on the simulated robot: its own URDF and meshes
// (sim/model.ts), sounds to a sink (sounds.ts), recorded moves from the hub
// (recorded-moves.ts). No hardware route answers 501.

const volumeBody = {
  type: 'object',
  properties: { volume: { type: 'integer', minimum: 0, maximum: 100 } },
  required: ['volume'],
} as const;

function volumeRoutes(app: FastifyInstance): void {
  const level = { speaker: 50, microphone: 50 };
  const answer = (v: number) => ({ volume: v, platform: 'simulation', device: 'none' });
  app.get('/api/volume/current', async () => answer(level.speaker));
  app.post<{ Body: { volume: number } }>('/api/volume/set', { schema: { body: volumeBody } }, async (req) => answer((level.speaker = req.body.volume)));
  app.get('/api/volume/microphone/current', async () => answer(level.microphone));
  app.post<{ Body: { volume: number } }>('/api/volume/microphone/set', { schema: { body: volumeBody } }, async (req) => answer((level.microphone = req.body.volume)));
  app.post('/api/volume/test-sound', async () => ({ status: 'skipped', message: 'The simulated robot has no speaker: no sound was played' }));
}

function mediaRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  // /api/media/release and /acquire belong to the SDK's routes (sdk-ws/route.ts); sounds: routes/sounds.ts.
  app.get('/api/media/status', async () => ({ available: false, released: false, no_media: true }));
  for (const path of ['stop_sound', 'clear_incoming_audio', 'wobbling/enable', 'wobbling/disable']) {
    app.post(`/api/media/${path}`, { preHandler: requireBackend(ctx) }, async () => ({ status: 'ok' }));
  }
  // Head tracking needs a camera: enabling it is the real daemon's no-op that says so.
  app.post('/api/media/tracking/enable', { preHandler: requireBackend(ctx) }, async () => {
    ctx.log('Cannot enable head tracking: no camera available');
    return { status: 'unavailable', enabled: false };
  });
  app.post('/api/media/tracking/disable', { preHandler: requireBackend(ctx) }, async () => ({ status: 'ok', enabled: false }));
  app.get('/api/media/tracking/face', { preHandler: requireBackend(ctx) }, async () => ({
    status: 'ok', face_target: { detected: false, x: null, y: null, roll: null, ts: null },
  }));
}

// The camera the real daemon falls back to when it detected none (media/camera_constants.py: the Lite's).
const LITE_RESOLUTIONS = [['R1920x1080at60fps', 1920, 1080, 60, 1.115], ['R3840x2592at30fps', 3840, 2592, 30, 1.0], ['R3840x2160at30fps', 3840, 2160, 30, 1.109], ['R3264x2448at30fps', 3264, 2448, 30, 1.115]] as const;
const resolution = (r: (typeof LITE_RESOLUTIONS)[number]) => ({ name: r[0], width: r[1], height: r[2], fps: r[3], crop_factor: r[4] });
const LITE_SPECS = {
  name: 'lite',
  available_resolutions: LITE_RESOLUTIONS.map(resolution),
  default_resolution: resolution(LITE_RESOLUTIONS[0]),
  K: [[2001.8076426486707, 0.0, 1905.876059826701], [0.0, 2003.0778885944105, 1328.3239717935594], [0.0, 0.0, 1.0]],
  D: [-1.4652320301298614, 0.6542714131667414, 0.012147809271745049, -0.002677286460143648, 0.3035939941825349, -1.4300809080461876,
    0.570024082887235, 0.3567299243352951, 0.003057363348400015, 0.0003357614008682464, -0.009897126394310923, -0.002050919484589521],
};

function sensorRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  // No ReSpeaker board: the real daemon's 503 in its words.
  const noBoard = async (): Promise<never> => { throw new HttpError(503, 'ReSpeaker audio board not available'); };
  app.post('/api/audio/config/apply', noBoard);
  app.get('/api/audio/config/parameter/:name', noBoard);
  app.get('/api/camera/specs', async () => LITE_SPECS);
  // No microphone array, so no direction of arrival: the documented null.
  app.get('/api/state/doa', async (_req, reply) => reply.type('application/json').send('null'));
  app.get('/api/kinematics/info', { preHandler: requireBackend(ctx) }, async () => ({ info: { engine: 'AnalyticalKinematics', 'collision check': false } }));
  app.get('/api/kinematics/urdf', { preHandler: requireBackend(ctx) }, async () => ({ urdf: urdf() }));
  app.get<{ Params: { '*': string } }>('/api/kinematics/stl/*', async (req, reply) => {
    const mesh = MESHES[req.params['*']];
    if (!mesh) throw new HttpError(404, `STL file not found assets/${req.params['*']}`);
    return reply.type('model/stl').send(mesh());
  });
}

export function hardwareRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  volumeRoutes(app);
  mediaRoutes(app, ctx);
  sensorRoutes(app, ctx);
  soundRoutes(app, ctx);
  recordedMoveRoutes(app, ctx);
}
