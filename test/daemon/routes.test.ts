import t, { type Test } from 'tap';
import { buildDaemon } from '../../runtime/daemon/server.js';

// Wire shape of the daemon's own routes, through fastify's inject.

async function daemon(t: Test) {
  const app = await buildDaemon({ appsDir: t.testdir(), sim: true });
  t.teardown(() => app.close());
  await app.ready();
  return app;
}

t.test('health check, status, robot name, hardware id', async (t) => {
  const app = await daemon(t);
  t.same((await app.inject({ method: 'POST', url: '/health-check' })).json(), { status: 'ok' });
  const st = (await app.inject({ method: 'GET', url: '/api/daemon/status' })).json();
  t.equal(st.type, 'daemon_status');
  t.equal(st.robot_name, 'reachy_mini');
  t.equal(st.state, 'running');
  t.equal(st.mockup_sim_enabled, true);
  t.equal(st.backend_status.motor_control_mode, 'enabled');
  t.same((await app.inject({ method: 'GET', url: '/api/daemon/robot-name' })).json(), { name: 'reachy_mini' });
  t.same((await app.inject({ method: 'POST', url: '/api/daemon/robot-name', payload: { name: 'desk' } })).json(), { name: 'desk' });
  t.equal((await app.inject({ method: 'GET', url: '/api/daemon/status' })).json().robot_name, 'desk');
  // Like the real one's: 16 hex digits (a hash of the audio device's serial; here of the apps folder), also in the status.
  const id = (await app.inject({ method: 'GET', url: '/api/daemon/hardware-id' })).json().hardware_id;
  t.match(id, /^[0-9a-f]{16}$/);
  t.equal((await app.inject({ method: 'GET', url: '/api/daemon/status' })).json().hardware_id, id);
  const page = await app.inject({ method: 'GET', url: '/' });
  t.equal(page.statusCode, 200);
  t.match(page.headers['content-type'], /text\/html/);
});

t.test('errors are JSON with the real messages', async (t) => {
  const app = await daemon(t);
  const nf = await app.inject({ method: 'GET', url: '/api/nope' });
  t.equal(nf.statusCode, 404);
  t.same(nf.json(), { detail: 'Not Found' });
  const job = await app.inject({ method: 'GET', url: '/api/apps/job-status/123' });
  t.equal(job.statusCode, 404);
  t.same(job.json(), { detail: 'Job ID not found' });
  // The real daemon's uncaught ValueError: a plain 500, the reason only in its log (spec §9 Names).
  const start = await app.inject({ method: 'POST', url: '/api/apps/start-app/ghost' });
  t.equal(start.statusCode, 500);
  t.equal(start.body, 'Internal Server Error');
  const stop = await app.inject({ method: 'POST', url: '/api/apps/stop-current-app' });
  t.equal(stop.statusCode, 400);
  t.same(stop.json(), { detail: 'No app is currently running' });
  const restart = await app.inject({ method: 'POST', url: '/api/apps/restart-current-app' });
  t.same(restart.json(), { detail: 'No app is currently running' });
  const cur = await app.inject({ method: 'GET', url: '/api/apps/current-app-status' });
  t.equal(cur.body, 'null');
  const kind = await app.inject({ method: 'POST', url: '/api/apps/install', payload: { name: 'x', source_kind: 'installed' } });
  t.equal(kind.statusCode, 400);
  t.same(kind.json(), { detail: "source_kind 'installed' is not installable via the API" });
  const startup = await app.inject({ method: 'PUT', url: '/api/apps/startup-app', payload: { startup_app: 'ghost' } });
  t.same(startup.json(), { detail: "App 'ghost' is not installed" });
  t.same((await app.inject({ method: 'GET', url: '/api/apps/startup-app' })).json(), { startup_app: null });
});

t.test('validation errors have FastAPI 422 shape', async (t) => {
  const app = await daemon(t);
  const r = await app.inject({ method: 'POST', url: '/api/move/goto', payload: { antennas: [0, 0] } });
  t.equal(r.statusCode, 422);
  t.same(r.json(), { detail: [{ type: 'missing', msg: 'Field required', loc: ['body', 'duration'], input: null }] });
  const k = await app.inject({ method: 'GET', url: '/api/apps/list-available/nope' });
  t.equal(k.statusCode, 422);
  t.same(k.json().detail[0].loc, ['path', 'source_kind']);
  const bad = await app.inject({ method: 'POST', url: '/api/move/goto', headers: { 'content-type': 'application/json' }, payload: '{nope' });
  t.equal(bad.statusCode, 422);
  t.ok(Array.isArray(bad.json().detail));
  const name = await app.inject({ method: 'POST', url: '/api/daemon/robot-name', payload: { name: '' } });
  t.equal(name.statusCode, 422);
  const mode = await app.inject({ method: 'POST', url: '/api/motors/set_mode/floppy' });
  t.equal(mode.statusCode, 422);
  const stop = await app.inject({ method: 'POST', url: '/api/move/stop', payload: { uuid: 'not-a-uuid' } });
  t.equal(stop.statusCode, 422);
});

t.test('listing with no venv yet is empty (listing never creates one)', async (t) => {
  const app = await daemon(t);
  t.same((await app.inject({ method: 'GET', url: '/api/apps/list-available/installed' })).json(), []);
  t.same((await app.inject({ method: 'GET', url: '/api/apps/list' })).json(), []);
  t.same((await app.inject({ method: 'GET', url: '/api/apps/list-available/hf_space' })).json(), []);
});

t.test('daemon stop/start jobs; backend routes answer 503 while stopped; busy is 409', async (t) => {
  const app = await daemon(t);
  const stop = (await app.inject({ method: 'POST', url: '/api/daemon/stop?goto_sleep=true' })).json();
  t.match(stop, { job_id: /^[0-9a-f-]{36}$/ });
  const busy = await app.inject({ method: 'POST', url: '/api/daemon/start?wake_up=false' });
  t.equal(busy.statusCode, 409);
  t.same(busy.json(), { detail: 'Daemon is busy.' });
  await app.daemon.jobs.get(stop.job_id)?.finished;
  t.equal((await app.inject({ method: 'GET', url: '/api/daemon/status' })).json().state, 'stopped');
  const s = await app.inject({ method: 'GET', url: '/api/state/full' });
  t.equal(s.statusCode, 503);
  t.same(s.json(), { detail: 'Backend not running' });
  const start = (await app.inject({ method: 'POST', url: '/api/daemon/start?wake_up=true' })).json();
  await app.daemon.jobs.get(start.job_id)?.finished;
  const info = (await app.inject({ method: 'GET', url: `/api/apps/job-status/${start.job_id}` })).json();
  t.same(info, { command: 'start', status: 'done', logs: ['Waking up', 'Daemon started', "Job 'start' completed successfully"] });
  const full = (await app.inject({ method: 'GET', url: '/api/state/full' })).json();
  t.same(full.antennas_position, [-0.1745, 0.1745]);
});
