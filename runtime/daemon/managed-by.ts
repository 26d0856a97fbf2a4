import type { FastifyInstance } from 'fastify';

// robotctl's agent names itself in its User-Agent (`robotctl-agent
// (fleet.yaml; host)`). The simulated daemon remembers the last such
// request, so its dashboard can say that the robot is managed from a
// robot.yaml and that a change made by hand will be undone. A robotctl
// extension: GET /api/robotctl/managed-by (the real daemon has no such route).

export interface ManagedBy {
  config: string;
  host: string;
  /** ISO time of the agent's last request. */
  last_seen: string;
}

const AGENT = /^robotctl-agent \(([^;()]{1,200}); ([^;()]{1,200})\)$/;

export function parseAgent(userAgent: string | undefined): { config: string; host: string } | null {
  const m = userAgent ? AGENT.exec(userAgent) : null;
  return m ? { config: m[1] as string, host: m[2] as string } : null;
}

export function managedByRoutes(app: FastifyInstance, now: () => Date = () => new Date()): void {
  let last: ManagedBy | null = null;
  app.addHook('onRequest', (req, _reply, done) => {
    const agent = parseAgent(req.headers['user-agent']);
    if (agent) last = { ...agent, last_seen: now().toISOString() };
    done();
  });
  app.get('/api/robotctl/managed-by', async () => ({ managed_by: last }));
}
