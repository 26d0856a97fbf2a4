import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DaemonContext } from '../context.js';
import { HttpError } from '../errors.js';
import { parseMultipart, type FormData } from '../multipart.js';

// Sounds (routers/media.py): uploads land in the robot's sounds folder
// (`<apps dir>/sounds`; /tmp/reachy_mini_sounds on a robot) under their own
// file name, checked as the real daemon checks them (an audio extension, at
// most 25 MiB, content that is audio); they are listed and deleted there.
// Playing one sends it to the simulated robot's sink: no speaker, so the
// daemon says so in its log and answers `{"status":"ok"}`, as the real one
// does without media.

const ALLOWED = ['.aac', '.flac', '.m4a', '.mp3', '.oga', '.ogg', '.opus', '.wav'];
export const MAX_SOUND_BYTES = 25 * 1024 * 1024;

/** What the real daemon's GStreamer probe tells: the container's magic bytes. */
function looksLikeAudio(b: Buffer): boolean {
  const at = (offset: number, text: string): boolean => b.subarray(offset, offset + text.length).toString('latin1') === text;
  if (at(0, 'RIFF') && at(8, 'WAVE')) return true;
  if (at(0, 'OggS') || at(0, 'fLaC') || at(0, 'ID3') || at(4, 'ftyp')) return true;
  return b.length > 1 && b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0; // an MPEG or ADTS frame
}

export function soundRoutes(app: FastifyInstance, ctx: DaemonContext): void {
  const folder = join(ctx.opts.appsDir, 'sounds');
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: MAX_SOUND_BYTES + 64 * 1024 }, (req, body, done) => {
    const form = parseMultipart(body as Buffer, String(req.headers['content-type'] ?? ''));
    if (!form) done(new HttpError(400, 'There was an error parsing the body'));
    else done(null, form);
  });

  app.post('/api/media/sounds/upload', { bodyLimit: MAX_SOUND_BYTES + 64 * 1024 }, async (req) => {
    const form = req.body as FormData | undefined;
    const file = form?.multipart ? form.parts.find((p) => p.name === 'file' && p.filename !== null) : undefined;
    if (!file) throw new HttpError(422, 'Field required: file (multipart/form-data)');
    if (!file.filename) throw new HttpError(400, 'Filename is required');
    const name = basename(file.filename.replace(/\\/g, '/'));
    if (!name || name === '.' || name === '..') throw new HttpError(400, 'Invalid filename');
    if (!ALLOWED.includes(extname(name).toLowerCase())) throw new HttpError(400, `Unsupported file extension; allowed: ${ALLOWED.join(', ')}`);
    if (file.content.length > MAX_SOUND_BYTES || !looksLikeAudio(file.content)) throw new HttpError(400, 'Unsupported or invalid audio file');
    await mkdir(folder, { recursive: true });
    const dest = join(folder, name);
    const partial = `${dest}.${process.pid}.upload`;
    await writeFile(partial, file.content);
    await rename(partial, dest);
    return { status: 'ok', path: dest };
  });

  app.get('/api/media/sounds', async () => ({ files: existsSync(folder) ? (await readdir(folder)).filter((f) => !f.endsWith('.upload')).sort() : [] }));

  app.delete<{ Params: { filename: string } }>('/api/media/sounds/:filename', async (req) => {
    const name = req.params.filename;
    if (!name || basename(name) !== name || name.includes('\\') || name === '.' || name === '..') throw new HttpError(400, 'Invalid filename');
    const path = join(folder, name);
    if (!existsSync(path)) throw new HttpError(404, `File '${name}' not found`);
    await rm(path, { force: true });
    return { status: 'ok' };
  });

  app.post<{ Body: { file: string } }>('/api/media/play_sound', { schema: { body: { type: 'object', properties: { file: { type: 'string' } }, required: ['file'] } } }, async (req) => {
    if (ctx.state !== 'running') throw new HttpError(503, 'Backend not running');
    const uploaded = basename(req.body.file) === req.body.file && existsSync(join(folder, req.body.file));
    ctx.log(`play_sound ${uploaded ? join(folder, req.body.file) : req.body.file}: to the sink (the simulated robot has no speaker)`);
    return { status: 'ok' };
  });
}
