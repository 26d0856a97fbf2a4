import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { Errors } from '../errors.js';
import { robotNameSchema } from '../schemas.js';
import type { HardwareIdAnswer, RobotNameAnswer } from '../../../lib/wire/daemon-update.js';

// The robot's identity (spec §9; routers/daemon.py): its hardware id and its
// display name. A rename is stored trimmed (utils/robot_name.py: strip, at
// most 64 characters; a name of only spaces is refused with 422 `Invalid
// robot name`) and applied live: the status's robot_name and the mDNS
// record, re-registered under the new name.

const MAX_NAME = 64;

export function identityRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  app.get('/api/daemon/hardware-id', async (): Promise<HardwareIdAnswer> => ({ hardware_id: ctx.hardwareId }));
  app.get('/api/daemon/robot-name', async (): Promise<RobotNameAnswer> => ({ name: ctx.robotName }));
  app.post<{ Body: { name: string } }>('/api/daemon/robot-name', { schema: { body: robotNameSchema } }, async (req): Promise<RobotNameAnswer> => {
    const name = req.body.name.trim().slice(0, MAX_NAME);
    if (!name) throw Errors.invalidRobotName();
    await ctx.store.setRobotName(name);
    ctx.robotName = name;
    ctx.supervisor.renamed(name);
    return { name };
  });
}
