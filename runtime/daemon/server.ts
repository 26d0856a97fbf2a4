import Fastify, { type FastifyInstance, type FastifySchema, type FastifyServerOptions } from 'fastify';
import websocket from '@fastify/websocket';
import { createContext, type DaemonContext, type DaemonOptions } from './context.js';
import type { IncomingHttpHeaders } from 'node:http';
import { crossSiteReason } from '../../lib/cross-site.js';
import { hostGuard, type HostGuard } from '../../lib/allowed-host.js';
import { Errors, installErrorHandlers } from './errors.js';
import { appsRoutes, startInstall } from './routes/apps.js';
import { hardwareRoutes } from './routes/hardware.js';
import { hfAuthRoutes } from './routes/hf-auth.js';
import { jobRoutes } from './routes/jobs.js';
import { daemonRoutes } from './routes/daemon.js';
import { moveRoutes } from './routes/move.js';
import { moveSocketRoutes } from './routes/move-ws.js';
import { docsRoutes } from './routes/docs.js';
import { stateRoutes } from './routes/state.js';
import { dashboardRoutes } from './dashboard-route.js';
import { reapLeftovers } from './apps/running-record.js';
import { killAll } from './apps/proc.js';
import { spawnedAny } from '../../lib/python-apps/marker.js';
import { sdkWsRoutes } from './sdk-ws/route.js';
import { managedByRoutes } from './managed-by.js';
import { buildLazySerializer, buildSharedValidator } from './route-compilers.js';
import { identityRoutes } from './routes/identity.js';
import { updateRoutes } from './routes/update.js';
import { appStateRoutes } from './routes/app-state.js';
import { APP_STATE_WS_PATH } from '../../lib/wire/daemon.js';
import { superviseDaemon, type RunningDaemon } from './supervisor.js';

// The bundled robot daemon: the real Reachy Mini daemon's REST/WebSocket API
// around a simulated robot. buildDaemon() makes the app (tests inject into
// it); startDaemon() also listens, starts the startup app, advertises over
// mDNS when asked and restarts after an update (supervisor.ts).

export type { DaemonOptions } from './context.js';
export type { RunningDaemon } from './supervisor.js';

/** The largest WebSocket message any client may send (a larger one closes the socket with 1009). */
export const WS_MAX_PAYLOAD = 1024 * 1024;

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

declare module 'fastify' {
  interface FastifyInstance {
    daemon: DaemonContext;
  }
}

/** One route as fastify registered it. */
export interface DaemonRoute {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  websocket: boolean;
}

const ROUTE_TABLES = new WeakMap<FastifyInstance, DaemonRoute[]>();

/** Every route of a daemon built by buildDaemon (the fuzz test covers each, so a new route is covered too). */
export function routeTable(app: FastifyInstance): readonly DaemonRoute[] {
  return ROUTE_TABLES.get(app) ?? [];
}

/** The fastify app, not listening. The robot loop runs from ready to close. */
export async function buildDaemon(opts: DaemonOptions): Promise<FastifyInstance> {
  const ctx = createContext(opts);
  const app = Fastify({
    logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true,
    // fastify's types have a compiler take a bare schema; it is given the route's definition (fastify/lib/validation.js).
    schemaController: {
      compilersFactory: {
        buildValidator: buildSharedValidator as unknown as Compilers['buildValidator'],
        buildSerializer: buildLazySerializer as unknown as Compilers['buildSerializer'],
      },
    },
  });
  const hosts = hostGuard(opts.allowedHosts);
  const routes: DaemonRoute[] = [];
  ROUTE_TABLES.set(app, routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url, schema: r.schema, websocket: r.websocket === true });
  });
  app.decorate('daemon', ctx);
  // Frames of the SDK protocol are a few hundred bytes; ws's default (100 MiB)
  // let four clients take 700 MB of the daemon (issue 29.7). Larger: close 1009.
  await app.register(websocket, { options: { maxPayload: WS_MAX_PAYLOAD } });
  installErrorHandlers(app, ctx.log);
  // A callback hook, not an async one: no promise per request on a robot's every call.
  app.addHook('onRequest', (req, _reply, done) => {
    ctx.stats.requests++;
    try {
      refuseForeign(hosts, req.method, req.url, req.headers);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') ctx.stats.writes++;
    done();
  });
  app.addHook('onReady', async () => {
    // Before anything else: an app a killed daemon left running must not run beside ours.
    await reapLeftovers(opts.appsDir, ctx.log);
    await ctx.noteRunning(null);
    ctx.robotName = (await ctx.store.robotName()) ?? ctx.robotName;
    ctx.robot.start();
    // Ready means the robot moves: its control thread, started with the robot, has booted meanwhile.
    await ctx.robot.loopUp();
  });
  app.addHook('preClose', async () => {
    ctx.abort.abort();
    ctx.holdRunningNote();
    await ctx.apps.shutdown();
    // Whatever this daemon spawned and is still there (pip, a stray child) goes with it.
    if (spawnedAny(ctx.marker)) killAll({ marker: ctx.marker });
    await ctx.dropRunningNote();
  });
  app.addHook('onClose', async () => {
    ctx.robot.close();
    await Promise.race([ctx.jobs.drain(), new Promise((r) => setTimeout(r, 5000).unref())]);
    await ctx.closeHub();
  });
  appsRoutes(app, ctx);
  appStateRoutes(app, ctx);
  jobRoutes(app, ctx);
  daemonRoutes(app, ctx);
  moveRoutes(app, ctx);
  moveSocketRoutes(app, ctx);
  stateRoutes(app, ctx);
  hardwareRoutes(app, ctx);
  identityRoutes(app, ctx);
  updateRoutes(app, ctx);
  hfAuthRoutes(app, ctx, (url) => startInstall(ctx, { name: url.split('/').pop() ?? '', source_kind: 'hf_space', description: '', url, extra: {} }));
  dashboardRoutes(app);
  sdkWsRoutes(app, ctx);
  managedByRoutes(app);
  docsRoutes(app, ctx, () => routes);
  return app;
}

/** Sockets that only send the robot's state: the fleet page (another origin) draws every robot from them. */
const READ_ONLY_STREAMS = new Set(['/api/state/ws/full', APP_STATE_WS_PATH]);

/**
 * A web page the user opens must not drive the robot (issue 12.2), nor read
 * or drive it through a name rebound to this machine (issue 29.3: every route
 * and WebSocket). A WebSocket upgrade is a GET but carries commands
 * (set_target, the SDK), so it is judged like a POST.
 */
function refuseForeign(hosts: HostGuard, method: string, url: string, headers: IncomingHttpHeaders): void {
  const foreign = hosts.refusal(headers.host);
  if (foreign) throw Errors.hostNotAllowed(foreign);
  const upgrade = headers.upgrade?.toLowerCase() === 'websocket' && !READ_ONLY_STREAMS.has(url.split('?', 1)[0] ?? '');
  const why = crossSiteReason(upgrade ? 'POST' : method, headers);
  if (why) throw Errors.crossSite(why);
}

/** Listening, with its startup app, its mDNS record, and restarts after updates (supervisor.ts). */
export function startDaemon(opts: DaemonOptions): Promise<RunningDaemon> {
  return superviseDaemon(opts, buildDaemon);
}
