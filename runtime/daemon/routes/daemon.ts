import { existsSync, readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { packagePath } from '../../../lib/paths.js';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import { boolQuery } from '../schemas.js';
import { extensionsField } from './app-state.js';

// Daemon status and control (spec §6), health check and the dashboard page.
// Its name and hardware id are routes/identity.ts; its version, update/.

const DAEMON_COMMANDS = ['start', 'stop', 'restart'] as const;

export function daemonStatus(ctx: DaemonContext): Record<string, unknown> {
  return {
    type: 'daemon_status',
    robot_name: ctx.robotName,
    state: ctx.state,
    wireless_version: false,
    desktop_app_daemon: false,
    simulation_enabled: false,
    mockup_sim_enabled: true,
    no_media: true,
    media_released: false,
    camera_specs_name: '',
    backend_status: ctx.state === 'running' || ctx.state === 'stopping'
      ? { ready: true, motor_control_mode: ctx.robot.motorMode, last_alive: Date.now() / 1000, control_loop_stats: ctx.robot.loopStats(), error: null }
      : null,
    error: null,
    wlan_ip: null,
    version: ctx.release.version,
    hardware_id: ctx.hardwareId,
    // Not in the real daemon's status: robotctl plans `path:` apps (local
    // installs, which the real daemon refuses over REST) only on its simulator.
    ...(ctx.extensions ? { robotctl_simulator: true } : {}),
    // robotctl's extensions (routes/app-state.ts): revision installs, the app-state socket.
    ...extensionsField(ctx),
  };
}

async function stopBackend(ctx: DaemonContext, gotoSleep: boolean, log: (l: string) => void): Promise<void> {
  ctx.state = 'stopping';
  await ctx.apps.shutdown();
  if (gotoSleep) {
    log('Going to sleep');
    await ctx.robot.gotoSleep().finished;
  }
  ctx.robot.stop();
  ctx.state = 'stopped';
  log('Daemon stopped');
}

async function startBackend(ctx: DaemonContext, wakeUp: boolean, log: (l: string) => void): Promise<void> {
  ctx.state = 'starting';
  ctx.robot.start();
  await ctx.robot.loopUp();
  ctx.state = 'running';
  if (wakeUp) {
    log('Waking up');
    await ctx.robot.wakeUp().finished;
  }
  log('Daemon started');
}

function daemonJob(ctx: DaemonContext, command: string, work: (log: (l: string) => void) => Promise<void>): { job_id: string } {
  if (ctx.jobs.busy(DAEMON_COMMANDS)) throw Errors.daemonBusy();
  return { job_id: ctx.jobs.run(command, work, (l) => ctx.log(`[daemon ${command}] ${l}`)).id };
}

function dashboardHtml(): string {
  const file = packagePath('runtime', 'daemon', 'dashboard', 'index.html');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  return `<!doctype html><html><head><meta charset="utf-8"><title>robotctl daemon</title></head><body>
<h1>robotctl daemon (simulated Reachy Mini)</h1><p>REST API:</p><ul>
<li>GET /api/daemon/status</li><li>GET /api/apps/list-available/installed</li><li>POST /api/apps/install</li>
<li>POST /api/apps/start-app/{name}</li><li>POST /api/apps/stop-current-app</li><li>GET /api/apps/current-app-status</li>
<li>POST /api/move/goto</li><li>POST /api/move/set_target</li><li>GET /api/state/full</li><li>GET /api/motors/status</li>
</ul></body></html>\n`;
}

export function daemonRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  app.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send(dashboardHtml()));
  app.post('/health-check', async () => ({ status: 'ok' }));
  app.get('/api/daemon/status', async () => daemonStatus(ctx));

  app.post<{ Querystring: { wake_up: boolean } }>('/api/daemon/start', { schema: { querystring: boolQuery('wake_up', true) } },
    async (req) => daemonJob(ctx, 'start', (log) => startBackend(ctx, req.query.wake_up, log)));
  app.post<{ Querystring: { goto_sleep: boolean } }>('/api/daemon/stop', { schema: { querystring: boolQuery('goto_sleep', true) } },
    async (req) => daemonJob(ctx, 'stop', (log) => stopBackend(ctx, req.query.goto_sleep, log)));
  const restartQuery = { type: 'object', properties: { wake_up: { type: 'boolean' }, goto_sleep: { type: 'boolean' } } } as const;
  app.post<{ Querystring: { wake_up?: boolean; goto_sleep?: boolean } }>('/api/daemon/restart', { schema: { querystring: restartQuery } }, async (req) =>
    daemonJob(ctx, 'restart', async (log) => {
      await stopBackend(ctx, req.query.goto_sleep === true, log);
      await startBackend(ctx, req.query.wake_up === true, log);
    }));
}
