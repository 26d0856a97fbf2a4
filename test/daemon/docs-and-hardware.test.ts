import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startDaemon, type RunningDaemon } from '../../runtime/daemon/server.js';
import { startHub, type RunningHub } from '../../runtime/hub/server.js';
import { fileScratch } from '../helpers/file-scratch.js';
import { until } from '../helpers/wait.js';

// Issue 30.7: the simulator serves /openapi.json (from its own route schemas)
// and /docs (offline), has the real daemon's WS /api/move/ws/set_target and
// WS /api/move/ws/raw/write, and its hardware routes work on the simulated
// robot (recorded moves, sounds to a sink, its own URDF and meshes) or
// answer as the real daemon does without the hardware (spec §9 Docs;
// routers/move.py, media.py, camera.py, audio_config.py, kinematics.py).

const real = JSON.parse(readFileSync('/work/shared/reference/reachy-mini-daemon-openapi.json', 'utf8')) as { paths: Record<string, Record<string, unknown>> };
const USER = { name: 'demo', token: 'hf_demo_recorded_moves_token_30' };
const scratch = fileScratch('docs-and-hardware');
const logs: string[] = [];
let hub: RunningHub;
let daemon: RunningDaemon;

t.before(async () => {
  hub = await startHub({ port: 0, users: [USER] });
  daemon = await startDaemon({ appsDir: join(scratch.dir, 'robot'), sim: true, port: 0, hubEndpoint: hub.url, hubToken: USER.token, log: (l) => logs.push(l) });
});
t.teardown(async () => {
  await daemon.close();
  await hub.close();
  scratch.remove();
});

const get = async (path: string): Promise<Response> => fetch(`${daemon.url}${path}`);
const post = async (path: string, body?: unknown): Promise<Response> => fetch(`${daemon.url}${path}`, { method: 'POST', ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
const ws = (path: string): WebSocket => new WebSocket(`${daemon.url.replace('http', 'ws')}${path}`);
const opened = (s: WebSocket): Promise<void> => new Promise((resolve, reject) => { s.once('open', () => resolve()); s.once('error', reject); });

t.test('§9 Docs: /openapi.json has every path and method of the real document, from the routes\' own schemas', async (t) => {
  const res = await get('/openapi.json');
  t.equal(res.status, 200);
  const doc = (await res.json()) as { openapi: string; info: { title: string }; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>> };
  t.equal(doc.openapi, '3.1.0');
  t.equal(doc.info.title, 'Reachy Mini REST API');
  const missing = Object.entries(real.paths).flatMap(([path, ops]) => Object.keys(ops).filter((m) => !doc.paths[path]?.[m]).map((m) => `${m.toUpperCase()} ${path}`));
  t.same(missing, [], 'every real operation is in the simulator\'s document');
  t.match(doc.paths['/api/move/goto']?.post?.requestBody?.content['application/json']?.schema, { required: ['duration'] }, 'the route\'s own body schema');
  t.notOk(Object.keys(doc.paths).some((p) => p.includes('/ws/')), 'no WebSocket route, as in FastAPI\'s document');
});

t.test('§9 Docs: /docs is one page that needs no network', async (t) => {
  const res = await get('/docs');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type') ?? '', /^text\/html/);
  const html = await res.text();
  t.notMatch(html, /<script|<link|src=|cdn/i, 'nothing is fetched');
  t.match(html, /POST<\/span> <code>\/api\/apps\/install<\/code>/);
  t.match(html, /WS \/api\/move\/ws\/set_target/);
  t.match(html, /WS \/api\/move\/ws\/raw\/write/);
});

t.test('WS /api/move/ws/set_target: a FullBodyTarget per frame, silent; a bad frame answers its error and the socket stays', async (t) => {
  const s = ws('/api/move/ws/set_target');
  t.teardown(() => s.close());
  await opened(s);
  const answers: string[] = [];
  s.on('message', (m) => answers.push(m.toString()));
  s.send(JSON.stringify({ target_antennas: [0.4, -0.4] }));
  await until(async () => {
    const a = (await (await get('/api/state/present_antenna_joint_positions')).json()) as number[];
    return Math.abs((a[0] ?? 0) - 0.4) < 1e-6;
  }, 10_000, 'the antennas at the target');
  s.send('{"target_antennas": "up"}');
  await until(() => answers.length > 0, 10_000, 'an error answer');
  const err = JSON.parse(answers[0] ?? '{}') as { status: string; detail: string };
  t.equal(err.status, 'error');
  t.match(err.detail, /validation error for FullBodyTarget/);
  t.equal(s.readyState, WebSocket.OPEN, 'still open');
  t.equal(answers.length, 1, 'a good frame is not answered');
});

t.test('WS /api/move/ws/raw/write: no serial port on this robot, the backend\'s error closes it (1011)', async (t) => {
  const s = ws('/api/move/ws/raw/write');
  await opened(s);
  const closed = new Promise<[number, string]>((resolve) => s.once('close', (code, reason) => resolve([code, reason.toString()])));
  s.send(Buffer.from([0xff, 0xff, 0xfd, 0x00, 0x01]));
  t.same(await closed, [1011, 'The method write_raw_packet is only available for the real robot backend.']);
});

t.test('hardware routes answer as the real daemon does without the hardware', async (t) => {
  t.same(await (await get('/api/media/status')).json(), { available: false, released: false, no_media: true });
  t.same(await (await post('/api/media/tracking/enable')).json(), { status: 'unavailable', enabled: false }, 'a no-op that says so');
  t.same(await (await get('/api/media/tracking/face')).json(), { status: 'ok', face_target: { detected: false, x: null, y: null, roll: null, ts: null } });
  const board = await post('/api/audio/config/apply', { config: [] });
  t.same([board.status, await board.json()], [503, { detail: 'ReSpeaker audio board not available' }]);
  t.match(await (await get('/api/camera/specs')).json(), { name: 'lite', default_resolution: { width: 1920, height: 1080, fps: 60 } });
  t.same(await (await get('/api/kinematics/info')).json(), { info: { engine: 'AnalyticalKinematics', 'collision check': false } });
  const urdf = ((await (await get('/api/kinematics/urdf')).json()) as { urdf: string }).urdf;
  t.match(urdf, /<robot name="reachy_mini_simulated">/);
  for (const joint of ['body_yaw', 'head_pitch', 'head_roll', 'head_yaw', 'left_antenna', 'right_antenna']) t.match(urdf, new RegExp(`<joint name="${joint}"`));
  const meshes = [...urdf.matchAll(/filename="assets\/([^"]+)"/g)].map((m) => m[1] as string);
  for (const mesh of new Set(meshes)) {
    const res = await get(`/api/kinematics/stl/${mesh}`);
    t.equal(res.headers.get('content-type'), 'model/stl');
    const body = Buffer.from(await res.arrayBuffer());
    t.equal(body.length, 84 + body.readUInt32LE(80) * 50, `${mesh} is a whole binary STL`);
  }
  const none = await get('/api/kinematics/stl/nope.stl');
  t.same([none.status, await none.json()], [404, { detail: 'STL file not found assets/nope.stl' }]);
});

function form(filename: string, content: Buffer): { body: Buffer; type: string } {
  const b = 'robotctlboundary30';
  return {
    type: `multipart/form-data; boundary=${b}`,
    body: Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: audio/wav\r\n\r\n`), content, Buffer.from(`\r\n--${b}--\r\n`)]),
  };
}

t.test('sounds: uploaded to the robot\'s folder, listed, played to the sink, deleted', async (t) => {
  const wav = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(64)]);
  const upload = async (name: string, content: Buffer): Promise<Response> => {
    const f = form(name, content);
    return fetch(`${daemon.url}/api/media/sounds/upload`, { method: 'POST', headers: { 'content-type': f.type }, body: new Uint8Array(f.body) });
  };
  const ok = await upload('beep.wav', wav);
  t.equal(ok.status, 200);
  t.match(await ok.json(), { status: 'ok', path: /sounds\/beep\.wav$/ });
  t.same(await (await get('/api/media/sounds')).json(), { files: ['beep.wav'] });
  t.same([(await upload('beep.exe', wav)).status], [400], 'an extension that is not audio');
  const fake = await upload('fake.wav', Buffer.from('not audio at all'));
  t.same([fake.status, await fake.json()], [400, { detail: 'Unsupported or invalid audio file' }]);
  t.same(await (await post('/api/media/play_sound', { file: 'beep.wav' })).json(), { status: 'ok' });
  t.ok(logs.some((l) => /play_sound .*sounds\/beep\.wav: to the sink/.test(l)), 'the sink says what it played');
  t.same(await (await fetch(`${daemon.url}/api/media/sounds/beep.wav`, { method: 'DELETE' })).json(), { status: 'ok' });
  t.equal((await fetch(`${daemon.url}/api/media/sounds/beep.wav`, { method: 'DELETE' })).status, 404);
});

t.test('recorded moves: a dataset on the hub is listed and its move played by the simulated robot', async (t) => {
  const frames = Array.from({ length: 11 }, (_, i) => ({ head: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], antennas: [0.05 * i, -0.05 * i], body_yaw: 0 }));
  const move = { description: 'antennas up', time: frames.map((_, i) => i * 0.05), set_target_data: frames };
  await hub.createRepo(USER.name, 'dataset', 'demo/moves', {});
  await hub.commit(USER.name, 'dataset', 'demo/moves', { 'data/raise.json': JSON.stringify(move), 'data/raise.wav': 'RIFF', 'other.txt': 'x' }, 'moves');
  t.same(await (await get('/api/move/recorded-move-datasets/list/demo/moves')).json(), ['raise']);
  const events: { type: string; uuid: string }[] = [];
  const updates = ws('/api/move/ws/updates');
  t.teardown(() => updates.close());
  await opened(updates);
  updates.on('message', (m) => events.push(JSON.parse(m.toString()) as { type: string; uuid: string }));
  const played = await post('/api/move/play/recorded-move-dataset/demo/moves/raise');
  t.equal(played.status, 200);
  const { uuid } = (await played.json()) as { uuid: string };
  await until(() => events.some((e) => e.type === 'move_completed' && e.uuid === uuid), 10_000, 'the move completed');
  t.ok(events.some((e) => e.type === 'move_started' && e.uuid === uuid));
  const antennas = (await (await get('/api/state/present_antenna_joint_positions')).json()) as number[];
  t.ok(Math.abs((antennas[0] ?? 0) - 0.5) < 1e-6, `at the last frame: ${antennas.join(', ')}`);
  t.ok(logs.some((l) => l.includes('data/raise.wav goes to the sink')), 'its sound went to the sink');
  const unknown = await post('/api/move/play/recorded-move-dataset/demo/moves/nope');
  t.same([unknown.status, await unknown.json()], [404, { detail: 'Move nope not found in recorded moves library demo/moves' }]);
  t.equal((await get('/api/move/recorded-move-datasets/list/demo/none')).status, 404);
});
