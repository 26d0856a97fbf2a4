import type { FastifyInstance } from 'fastify';
import type { AppInfo, AppStatus } from '../../../lib/wire/daemon.js';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import { toAppInfo } from '../apps/store.js';
import { checkAppName } from '../apps/names.js';
import { extensionsOn } from './app-state.js';
import { withoutRevision } from '../apps/revision.js';
import { appInfoSchema, seedInstallSchema, SOURCE_KINDS, startupAppSchema } from '../schemas.js';

// Apps routes (spec §2): listing, install/remove/update jobs, lifecycle.
// The install/remove/update code (installer, pip, wheel cache) is loaded by
// the first job that needs it, not at every daemon start.

const operations = (): Promise<typeof import('../apps/operations.js')> => import('../apps/operations.js');

const logsQuery = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 }, since: { type: 'integer', minimum: 0 } },
} as const;

/**
 * `{"url": …}` alone is the seed's install body; any other body is the real
 * daemon's AppInfo, refused with FastAPI's 422 when it is not one (issue 29.8:
 * an AppInfo without its name passed as a seed body and crashed the handler).
 */
const installBody = {
  if: { type: 'object', required: ['url'], not: { anyOf: [{ required: ['name'] }, { required: ['source_kind'] }] } },
  then: seedInstallSchema,
  else: appInfoSchema,
} as const;

const nameParam = { type: 'object', properties: { app_name: { type: 'string' } }, required: ['app_name'] } as const;

// Jobs are not serialised, as in the real daemon (spec §9 Jobs): two at once
// run at once, and two installs of one Space snapshot collide
// (apps/snapshot-guard.ts).
function jobFor(ctx: DaemonContext, command: string, work: (log: (l: string) => void) => Promise<void>): { job_id: string } {
  const job = ctx.jobs.run(command, (log) => work(log), (l) => ctx.log(`[job ${command}] ${l}`));
  return { job_id: job.id };
}

/** The app as current-app-status shows it: the real daemon's bare AppInfo without robotctl's extensions. */
function shown(ctx: DaemonContext, s: AppStatus): AppStatus {
  return ctx.extensions ? s : { ...s, info: { name: s.info.name, source_kind: 'installed', description: '', url: null, extra: {} } };
}

export function startInstall(ctx: DaemonContext, info: AppInfo): { job_id: string } {
  checkAppName(info.name, 'name');
  const installable = info.source_kind === 'hf_space' || (info.source_kind === 'local' && ctx.extensions);
  if (!installable) throw Errors.notInstallable(info.source_kind);
  // Defaults inside anyOf are not applied by ajv: fill them here.
  const asked: AppInfo = { name: info.name, source_kind: info.source_kind, description: info.description ?? '', url: info.url ?? null, extra: info.extra ?? {} };
  // Pollen's daemon installs a Space's head whatever the request says.
  const full = extensionsOn(ctx) ? asked : withoutRevision(asked);
  return jobFor(ctx, 'install', async (log) => (await operations()).install(ctx.ops, full, log));
}

export function appsRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const installedInfos = async (): Promise<AppInfo[]> => (await ctx.installed()).map((a) => toAppInfo(a, ctx.extensions));

  app.get('/api/apps/list-available', async () => installedInfos());
  // The seed's name for the installed list.
  app.get('/api/apps/list', async () => installedInfos());
  app.get<{ Params: { source_kind: string } }>('/api/apps/list-available/:source_kind', {
    schema: { params: { type: 'object', properties: { source_kind: { type: 'string', enum: SOURCE_KINDS } } } },
  }, async (req) => {
    // No app store catalog offline: only installed apps are known.
    return req.params.source_kind === 'installed' ? installedInfos() : [];
  });

  app.post<{ Body: AppInfo | { url: string } }>('/api/apps/install', {
    schema: { body: installBody },
  }, async (req) => {
    const body = req.body;
    if ('source_kind' in body) return startInstall(ctx, body);
    const name = body.url.split('/').filter(Boolean).pop() ?? body.url;
    return startInstall(ctx, { name, source_kind: 'hf_space', description: '', url: body.url, extra: {} });
  });

  // A name is only looked up among the installed entry points, never used as
  // a path: whatever it is, the job starts and fails as the real one does.
  app.post<{ Params: { app_name: string } }>('/api/apps/remove/:app_name', { schema: { params: nameParam } },
    async (req) => {
      const name = req.params.app_name;
      // The real daemon clears the startup app it removes, so nothing tries to start it at boot.
      if ((await ctx.store.startupApp()) === name) await ctx.store.setStartupApp(null);
      return jobFor(ctx, 'remove', async (log) => (await operations()).remove(ctx.ops, name, log));
    });
  app.post<{ Params: { app_name: string } }>('/api/apps/update/:app_name', { schema: { params: nameParam } },
    async (req) => {
      const name = req.params.app_name;
      return jobFor(ctx, 'update', async (log) => (await operations()).update(ctx.ops, name, log));
    });
  app.get('/api/apps/check-updates', async () => (await operations()).checkUpdates(ctx.ops));

  app.post<{ Params: { app_name: string } }>('/api/apps/start-app/:app_name', { schema: { params: nameParam } },
    async (req) => shown(ctx, await ctx.apps.start(req.params.app_name)));
  // Newer daemons' variant that never evicts a running app: ours never does.
  app.post<{ Params: { app_name: string } }>('/api/apps/start-app/:app_name/no-evict', { schema: { params: nameParam } },
    async (req) => shown(ctx, await ctx.apps.start(req.params.app_name)));
  app.post('/api/apps/restart-current-app', async () => shown(ctx, await ctx.apps.restart()));
  app.post('/api/apps/stop-current-app', async (_req, reply) => {
    await ctx.apps.stop();
    return reply.type('application/json').send('null');
  });
  app.get('/api/apps/current-app-status', async (_req, reply) => {
    const s = ctx.apps.status();
    return s ? shown(ctx, s) : reply.type('application/json').send('null');
  });
  // Not in the real daemon: the dashboard's log view. Paged, so an app that floods cannot make one answer huge.
  app.get<{ Querystring: { limit?: number; since?: number } }>('/api/apps/current-app-logs', { schema: { querystring: logsQuery } },
    async (req) => ctx.apps.logs.page({ limit: req.query.limit ?? 200, ...(req.query.since !== undefined ? { since: req.query.since } : {}) }));

  app.get('/api/apps/startup-app', async () => ({ startup_app: await ctx.store.startupApp() }));
  app.put<{ Body: { startup_app?: string | null } }>('/api/apps/startup-app', { schema: { body: startupAppSchema } }, async (req) => {
    const name = req.body.startup_app ?? null;
    // Only stored and compared with the entry points, as the real daemon does (an empty name clears it there too).
    if (name && !(await ctx.installed()).some((a) => a.entry.name === name)) throw Errors.notInstalled(name);
    await ctx.store.setStartupApp(name);
    return { startup_app: name };
  });
}
