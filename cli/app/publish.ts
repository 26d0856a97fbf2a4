import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { ExitError, UserError } from '../../lib/errors.js';
import type { Io } from '../../lib/io.js';
import { createHubClient } from '../../drivers/hub/client.js';
import { resolveEndpoint } from '../../drivers/hub/endpoint.js';
import { resolveToken, type ResolvedToken } from '../../drivers/hub/token.js';
import { HubError } from '../../drivers/hub/errors.js';
import type { CommitOperation, RepoInfo } from '../../drivers/hub/types.js';
import { checkApp } from './check.js';
import { cachedCheck } from './check-cache.js';
import { listAppFiles } from './files.js';
import { HUB_OWNED, spaceHasFiles } from './space-unchanged.js';
import { readPyproject, tomlGet } from './pyproject.js';
import { info, ok } from './report.js';
import { commandLine } from '../views/command-line.js';

export interface PublishOptions {
  path: string;
  token: string | undefined;
  private: boolean;
  /** Run `app check` first (the real assistant does unless --nocheck). */
  check: boolean;
}

async function appName(root: string, check: boolean, io: Io): Promise<string> {
  if (check) return cachedCheck(root, io, () => checkApp(root, io));
  const file = join(root, 'pyproject.toml');
  if (existsSync(file)) {
    const name = tomlGet(await readPyproject(file, io.env), 'project', 'name');
    if (typeof name === 'string' && name !== '') return name;
  }
  return basename(root);
}

/** Add every app file (read from disk by the driver: large ones stream to LFS); delete what the Space has that the folder no longer has. */
function operations(existing: RepoInfo | null, root: string, files: string[]): CommitOperation[] {
  const adds: CommitOperation[] = files.map((path) => ({ op: 'add', path, file: join(root, path) }));
  const keep = new Set(files);
  const deletes: CommitOperation[] = (existing?.siblings ?? [])
    .map((s) => s.rfilename)
    .filter((f) => !keep.has(f) && !HUB_OWNED.has(f))
    .map((path) => ({ op: 'delete', path }));
  return [...adds, ...deletes];
}

/** The token a publish uses; none is a one-line error (asked before `app create --publish` makes anything). */
export function publishToken(flag: string | undefined, io: Io): ResolvedToken {
  const token = resolveToken({ flag: flag ?? null, env: io.env });
  if (!token) {
    throw new UserError(`You need to be logged in to Hugging Face to publish an app: set HF_TOKEN, or run \`${commandLine(io)('auth login')}\` (or pass --token-file PATH).`);
  }
  return token;
}

/** `robotctl app publish PATH`: Space `<user>/<name>`, all files in one commit. Returns the Space URL. */
export async function publishApp(opts: PublishOptions, io: Io): Promise<string> {
  const root = resolve(io.cwd, opts.path);
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    io.err(`App path ${root} does not exist.\n`);
    throw new ExitError(1);
  }
  const token = publishToken(opts.token, io);
  const name = await appName(root, opts.check, io);
  const endpoint = resolveEndpoint(io.env);
  const client = createHubClient({ endpoint, token: token.token });
  try {
    const user = (await client.whoami()).name;
    const id = `${user}/${name}`;
    info(io, `\nPublishing '${name}' to the Space ${id} on ${endpoint}...`);
    await client.createRepo('space', id, { spaceSdk: 'static', existOk: true, private: opts.private });
    const url = `${client.endpoint}/spaces/${id}`;
    const files = listAppFiles(root);
    const existing = await client.repoInfo('space', id, undefined, { filesMetadata: true });
    if (await spaceHasFiles(client, id, existing, root, files)) {
      ok(io, `No changes: ${url} already has these ${files.length} files (commit ${existing?.sha.slice(0, 7)}); nothing published.`);
      return url;
    }
    const ops = operations(existing, root, files);
    const { commitOid } = await client.commit('space', id, ops, `Publish ${name} with robotctl`);
    ok(io, `App published: ${url} (${ops.filter((o) => o.op === 'add').length} files, commit ${commitOid.slice(0, 7)})`);
    return url;
  } catch (err) {
    if (err instanceof HubError) throw new UserError(`Publishing failed: ${err.message}`);
    throw err;
  } finally {
    await client.close();
  }
}
