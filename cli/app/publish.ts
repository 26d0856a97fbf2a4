import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ExitError, UserError } from '../../lib/errors.js';
import type { Io } from '../../lib/io.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { resolveEndpoint } from '../../drivers/hub/endpoint.js';
import { resolveToken } from '../../drivers/hub/token.js';
import { HubError } from '../../drivers/hub/errors.js';
import type { CommitOperation, HubClient } from '../../drivers/hub/types.js';
import { checkApp } from './check.js';
import { listAppFiles } from './files.js';
import { readPyproject, tomlGet } from './pyproject.js';
import { info, ok } from './report.js';

export interface PublishOptions {
  path: string;
  token: string | undefined;
  private: boolean;
  /** Run `app check` first (the real assistant does unless --nocheck). */
  check: boolean;
}

// The hub creates this one itself; a publish never deletes it.
const HUB_OWNED = new Set(['.gitattributes']);

async function appName(root: string, check: boolean, io: Io): Promise<string> {
  if (check) return (await checkApp(root, io)).name;
  const file = join(root, 'pyproject.toml');
  if (existsSync(file)) {
    const name = tomlGet(await readPyproject(file, io.env), 'project', 'name');
    if (typeof name === 'string' && name !== '') return name;
  }
  return basename(root);
}

/** Add every app file; delete what the Space has that the folder no longer has. */
async function operations(client: HubClient, id: string, root: string): Promise<CommitOperation[]> {
  const files = listAppFiles(root);
  const adds: CommitOperation[] = files.map((path) => ({ op: 'add', path, content: readFileSync(join(root, path)) }));
  const existing = await client.repoInfo('space', id);
  const keep = new Set(files);
  const deletes: CommitOperation[] = (existing?.siblings ?? [])
    .map((s) => s.rfilename)
    .filter((f) => !keep.has(f) && !HUB_OWNED.has(f))
    .map((path) => ({ op: 'delete', path }));
  return [...adds, ...deletes];
}

/** `robotctl app publish PATH`: Space `<user>/<name>`, all files in one commit. Returns the Space URL. */
export async function publishApp(opts: PublishOptions, io: Io): Promise<string> {
  const root = resolve(io.cwd, opts.path);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    io.err(`App path ${root} does not exist.\n`);
    throw new ExitError(1);
  }
  const token = resolveToken({ flag: opts.token ?? null, env: io.env });
  if (!token) {
    throw new UserError('You need to be logged in to Hugging Face to publish an app: run `robotctl auth login`, set HF_TOKEN, or pass --token.');
  }
  const name = await appName(root, opts.check, io);
  const endpoint = resolveEndpoint(io.env);
  const client = createHubClient({ endpoint, token: token.token });
  try {
    const user = (await client.whoami()).name;
    const id = `${user}/${name}`;
    info(io, `\nPublishing '${name}' to the Space ${id} on ${endpoint}...`);
    await client.createRepo('space', id, { spaceSdk: 'static', existOk: true, private: opts.private });
    const ops = await operations(client, id, root);
    const { commitOid } = await client.commit('space', id, ops, `Publish ${name} with robotctl`);
    const url = `${client.endpoint}/spaces/${id}`;
    ok(io, `App published: ${url} (${ops.filter((o) => o.op === 'add').length} files, commit ${commitOid.slice(0, 7)})`);
    return url;
  } catch (err) {
    if (err instanceof HubError) throw new UserError(`Publishing failed: ${err.message}`);
    throw err;
  } finally {
    await client.close();
  }
}
