import type { FastifyInstance } from 'fastify';
import type { HubClient } from '../../../drivers/hub/types.js';
import type { DaemonContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { PartialTarget } from '../sim/robot.js';
import { requireBackend } from './move.js';

// Recorded moves (routers/move.py, motion/recorded_move.py), played by the
// simulated robot: a dataset on the hub holds one JSON file per move (at its
// root or in data/), `{description, time: [s…], set_target_data: [{head:
// 4×4, antennas: [l, r], body_yaw}…]}`, and maybe a sound beside it. The
// daemon reads it from its hub (the embedded one offline), lists the moves'
// names, and plays one as a move of its own (its uuid, move_started and
// move_completed, /api/move/stop), the pose blended linearly between frames.
// The sound goes to the simulated robot's sink: no speaker, a log line.

const SOUND_EXTENSIONS = ['.wav', '.mp3', '.ogg', '.oga', '.opus', '.flac', '.m4a', '.aac'];

interface Frame { head?: number[][]; antennas?: number[]; body_yaw?: number }
interface RecordedMove { description?: string; time: number[]; set_target_data: Frame[] }

interface Dataset { hub: HubClient; sha: string; moves: Map<string, string>; files: Set<string> }

async function dataset(ctx: DaemonContext, name: string): Promise<Dataset> {
  const hub = await ctx.hub();
  let info;
  try {
    info = /^[^/\s]+\/[^/\s]+$/.test(name) ? await hub.repoInfo('dataset', name, ctx.abort.signal) : null;
  } catch (err) {
    throw new HttpError(503, `Cannot read dataset ${name} on ${hub.endpoint}: ${(err as Error).message}`);
  }
  if (!info) throw new HttpError(404, `Repository Not Found for url: ${hub.endpoint}/api/datasets/${name}/revision/main.`);
  const files = new Set(info.siblings.map((s) => s.rfilename));
  const moves = new Map<string, string>();
  for (const f of files) {
    const m = /^(?:data\/)?([^/]+)\.json$/.exec(f);
    if (m?.[1]) moves.set(m[1], f);
  }
  return { hub, sha: info.sha, moves, files };
}

function frames(move: RecordedMove): { atMs: number; target: PartialTarget }[] {
  const t0 = move.time[0] ?? 0;
  return move.set_target_data.map((f, i) => {
    const head = Array.isArray(f.head) && f.head.length === 4 ? f.head.flat() : null;
    const antennas = Array.isArray(f.antennas) && f.antennas.length === 2 ? [Number(f.antennas[0]), Number(f.antennas[1])] as [number, number] : null;
    return { atMs: Math.max(0, ((move.time[i] ?? t0) - t0) * 1000), target: { head: head?.length === 16 ? head : null, antennas, bodyYaw: typeof f.body_yaw === 'number' ? f.body_yaw : null } };
  });
}

function parseMove(text: string, where: string): RecordedMove {
  const move = JSON.parse(text) as Partial<RecordedMove>;
  if (!Array.isArray(move.time) || !Array.isArray(move.set_target_data) || move.time.length === 0 || move.time.length !== move.set_target_data.length) {
    throw new HttpError(422, `${where} is not a recorded move (time and set_target_data of one length)`);
  }
  return move as RecordedMove;
}

export function recordedMoveRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  // Dataset names are Hub repo ids (owner/name): the wildcard takes the slash.
  app.get<{ Params: { '*': string } }>('/api/move/recorded-move-datasets/list/*', async (req) => [...(await dataset(ctx, req.params['*'])).moves.keys()].sort());

  app.post<{ Params: { '*': string } }>('/api/move/play/recorded-move-dataset/*', { preHandler: requireBackend(ctx) }, async (req) => {
    const path = req.params['*'];
    const cut = path.lastIndexOf('/');
    const name = path.slice(0, cut);
    const moveName = path.slice(cut + 1);
    const ds = await dataset(ctx, name);
    const file = ds.moves.get(moveName);
    if (!file) throw new HttpError(404, `Move ${moveName} not found in recorded moves library ${name}`);
    const move = parseMove((await ds.hub.downloadFile('dataset', name, file, ds.sha, ctx.abort.signal)).toString('utf8'), file);
    const handle = ctx.robot.play(frames(move));
    const sound = SOUND_EXTENSIONS.map((ext) => file.replace(/\.json$/, ext)).find((f) => ds.files.has(f));
    if (sound) ctx.log(`Recorded move ${moveName}: its sound ${sound} goes to the sink (the simulated robot has no speaker)`);
    return handle.clamped.length ? { uuid: handle.uuid, clamped: handle.clamped } : { uuid: handle.uuid };
  });
}
