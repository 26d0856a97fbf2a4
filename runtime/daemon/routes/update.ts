import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import { boolQuery } from '../schemas.js';
import { stream } from './jobs.js';
import { runUpdate, type UpdateRequest } from '../update/job.js';
import { DAEMON_MESSAGES, UPDATE_JOB, type InstallSource, type UpdateAvailableAnswer } from '../../../lib/wire/daemon-update.js';

// The daemon's update API (spec §9; routers/update.py) over the simulated
// releases (update/releases.ts) instead of PyPI and GitHub. One update at a
// time: while one runs (until the daemon is gone for its restart) the
// availability check answers 400 `Update is in progress` and a second start
// 400 `Update already in progress`. The job is an ordinary daemon job: its
// info and log WebSocket are the apps jobs' too, as on the real daemon.

const refQuery = { type: 'object', properties: { git_ref: { type: 'string' } }, required: ['git_ref'] } as const;
const jobQuery = { type: 'object', properties: { job_id: { type: 'string' } }, required: ['job_id'] } as const;

export function updateRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const busy = (): boolean => ctx.release.restarting || ctx.jobs.busy([UPDATE_JOB]);
  const start = (req: UpdateRequest): { job_id: string } =>
    ({ job_id: ctx.jobs.run(UPDATE_JOB, (log) => runUpdate(ctx, req, log), (l) => ctx.log(`[update] ${l}`)).id });

  app.get('/api/update/install-source', async (): Promise<InstallSource> => ({ ...ctx.release.source, version: ctx.release.version }));

  app.get<{ Querystring: { pre_release?: boolean } }>('/api/update/available', { schema: { querystring: boolQuery('pre_release', false) } },
    async (req): Promise<UpdateAvailableAnswer> => {
      if (busy()) throw Errors.updateInProgress();
      const current = ctx.release.version;
      const latest = ctx.release.list.latest(req.query.pre_release === true);
      return { update: { reachy_mini: { is_available: ctx.release.list.isNewer(latest, current), current_version: current, available_version: latest ?? 'unknown' } } };
    });

  app.post<{ Querystring: { pre_release?: boolean } }>('/api/update/start', { schema: { querystring: boolQuery('pre_release', false) } }, async (req) => {
    if (busy()) throw Errors.updateAlreadyInProgress();
    const preRelease = req.query.pre_release === true;
    const latest = ctx.release.list.latest(preRelease);
    if (latest === null || !ctx.release.list.isNewer(latest, ctx.release.version)) throw Errors.noUpdateAvailable();
    return start({ from: 'pypi', preRelease, version: latest });
  });

  app.post<{ Querystring: { git_ref: string } }>('/api/update/start-from-ref', { schema: { querystring: refQuery } }, async (req) => {
    if (busy()) throw Errors.updateAlreadyInProgress();
    if (!req.query.git_ref.trim()) throw Errors.emptyRef();
    return start({ from: 'ref', ref: req.query.git_ref });
  });

  // The real one asks GitHub; here the releases are the repository's tags.
  app.get<{ Querystring: { git_ref: string } }>('/api/update/validate-ref', { schema: { querystring: refQuery } }, async (req) => {
    const ref = req.query.git_ref;
    if (!ref.trim()) throw Errors.emptyRef();
    return ctx.release.list.resolveRef(ref) !== null ? { valid: true, ref } : { valid: false, ref, error: `Ref '${ref}' not found` };
  });

  app.get<{ Querystring: { job_id: string } }>('/api/update/info', { schema: { querystring: jobQuery } }, async (req) => {
    const job = ctx.jobs.get(req.query.job_id);
    if (!job) throw Errors.jobNotFound();
    return job.info();
  });

  app.get<{ Querystring: { job_id?: string } }>('/api/update/ws/logs', { websocket: true }, (socket, req) => {
    const job = ctx.jobs.get(req.query.job_id ?? '');
    if (!job) {
      socket.send(JSON.stringify({ error: DAEMON_MESSAGES.jobNotFound }));
      socket.close();
      return;
    }
    stream(socket, job);
  });
}
