import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import type { Job } from '../jobs.js';

// Job status and the job log WebSocket (spec §4). Unlike the real daemon,
// a socket opened after the job ended gets the final state at once.

export function stream(socket: WebSocket, job: Job): void {
  const send = (lines: string[]): void => {
    for (const l of lines) socket.send(l);
    socket.send(JSON.stringify({ command: job.command, status: job.status, logs: lines }));
  };
  send([...job.logs]);
  if (job.ended) {
    socket.close();
    return;
  }
  const off = job.subscribe((j, lines) => {
    send(lines);
    if (j.ended) {
      off();
      socket.close();
    }
  });
  socket.on('close', off);
}

export function jobRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  app.get<{ Params: { job_id: string } }>('/api/apps/job-status/:job_id', async (req) => {
    const job = ctx.jobs.get(req.params.job_id);
    if (!job) throw Errors.jobNotFound();
    return job.info();
  });

  app.get<{ Params: { job_id: string } }>('/api/apps/ws/apps-manager/:job_id', { websocket: true }, (socket, req) => {
    const job = ctx.jobs.get(req.params.job_id);
    if (!job) {
      socket.send(JSON.stringify({ error: 'Job ID not found' }));
      socket.close();
      return;
    }
    stream(socket, job);
  });
}
