import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { HttpError } from '../errors.js';

// The real daemon's hardware routes (reference OpenAPI: audio, camera,
// volume, media, kinematics, direction of arrival, recorded moves). A
// simulated robot has no camera, microphones, speaker or motion datasets:
// where a neutral answer is honest it is given in the documented shape
// (volumes are kept in memory, no sound, no face, no datasets); where it
// would be a lie, 501 says why.

const noHardware = (what: string): HttpError => new HttpError(501, `The simulated robot has no ${what}`);

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

function mediaRoutes(app: FastifyInstance): void {
  // /api/media/release and /acquire belong to the SDK's routes (sdk-ws/route.ts).
  app.get('/api/media/status', async () => ({ camera: false, audio: false }));
  app.post('/api/media/play_sound', { schema: { body: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] } } },
    async () => { throw noHardware('speaker: sounds cannot be played'); });
  for (const path of ['stop_sound', 'clear_incoming_audio', 'wobbling/enable', 'wobbling/disable']) {
    app.post(`/api/media/${path}`, async () => ({ status: 'ok' }));
  }
  app.post('/api/media/tracking/enable', async () => { throw noHardware('camera: head tracking needs one'); });
  app.post('/api/media/tracking/disable', async () => ({ status: 'ok', tracking: false }));
  app.get('/api/media/tracking/face', async () => ({ face: null }));
  app.get('/api/media/sounds', async () => ({ sounds: [] }));
  app.post('/api/media/sounds/upload', async () => { throw noHardware('speaker: uploaded sounds could never be played'); });
  app.delete<{ Params: { filename: string } }>('/api/media/sounds/:filename', async (req) => {
    throw new HttpError(404, `Sound '${req.params.filename}' not found`);
  });
}

function sensorRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  app.post('/api/audio/config/apply', async () => { throw noHardware('audio board to configure'); });
  app.get<{ Params: { name: string } }>('/api/audio/config/parameter/:name', async (req) => { throw noHardware(`audio board: no parameter '${req.params.name}'`); });
  app.get('/api/camera/specs', async () => { throw noHardware('camera'); });
  // No microphone array, so no direction of arrival: the documented null.
  app.get('/api/state/doa', async (_req, reply) => reply.type('application/json').send('null'));
  app.get('/api/kinematics/info', async () => ({ engine: 'robotctl-sim', simulated: true, motor_control_mode: ctx.robot.motorMode }));
  app.get('/api/kinematics/urdf', async () => { throw noHardware('URDF bundled: the real daemon serves its own model'); });
  app.get<{ Params: { '*': string } }>('/api/kinematics/stl/*', async () => { throw noHardware('STL meshes bundled: the real daemon serves its own model'); });
  // Dataset names are Hub repo ids (owner/name): the wildcard takes the slash.
  app.get('/api/move/recorded-move-datasets/list/*', async () => []);
  app.post<{ Params: { '*': string } }>('/api/move/play/recorded-move-dataset/*', async (req) => {
    throw noHardware(`recorded move dataset for '${req.params['*']}': the real daemon downloads them from the Hub`);
  });
}

export function hardwareRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  volumeRoutes(app);
  mediaRoutes(app);
  sensorRoutes(app, ctx);
}
