import { existsSync, mkdirSync, statSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { ExitError } from '../../lib/errors.js';
import type { Io } from '../../lib/io.js';
import { validateAppName } from '../../lib/python-apps/names.js';
import { TEMPLATES, writeTemplate, type TemplateName } from './template.js';
import { errorLine, ok } from './report.js';

export interface CreateOptions {
  name: string;
  dest: string;
  template: string;
}

/** `robotctl app create`: the app folder of spec §5. Returns its absolute path. */
export function createApp(opts: CreateOptions, io: Io): string {
  const problem = validateAppName(opts.name);
  if (problem) {
    io.err(`${problem}\n`);
    throw new ExitError(1);
  }
  if (!(TEMPLATES as readonly string[]).includes(opts.template)) {
    errorLine(io, `Unknown template '${opts.template}': use one of ${TEMPLATES.join(', ')}.`);
    throw new ExitError(1);
  }
  const dest = resolve(io.cwd, opts.dest);
  if (existsSync(dest) && !statSync(dest).isDirectory()) {
    errorLine(io, `The path ${dest} is not a folder.`);
    throw new ExitError(1);
  }
  // The assistant refuses a missing DEST; the README's `app create my_app ./apps` from a fresh clone needs it made.
  if (!existsSync(dest)) mkdirSync(dest, { recursive: true });
  const base = join(dest, opts.name);
  if (existsSync(base)) {
    errorLine(io, `Folder ${base} already exists.`);
    throw new ExitError(1);
  }
  writeTemplate(opts.template as TemplateName, opts.name, base);
  ok(io, `Created app '${opts.name}' in ${base}/`);
  return base;
}
