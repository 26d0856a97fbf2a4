import ignore from 'ignore';
import type { HubContext } from '../context.js';
import { badRequest } from '../errors.js';
import { MAX_REGULAR_FILE_BYTES } from '../git/pre-receive.js';
import type { StoredRepo } from '../types.js';
import { parseLfsRules, tracksWithLfs } from './attributes.js';

// preupload's answer, per file, by the Hub's rules as huggingface_hub reads
// them (_commit_api._fetch_upload_modes): `lfs` over 10 MiB or where the
// revision's .gitattributes says `filter=lfs`; `shouldIgnore` from the
// .gitignore the client sends (`gitIgnore`) or the revision's; `oid` of the
// file the revision has at that path (git's blob id, or an LFS file's
// sha256), which the client compares with its own to skip unchanged files.

export interface PreuploadFile {
  path: string;
  uploadMode: 'lfs' | 'regular';
  shouldIgnore: boolean;
  oid?: string;
}

interface Asked {
  path: string;
  size: number;
}

function asked(files: unknown): Asked[] {
  if (!Array.isArray(files)) throw badRequest('`files` must be an array of {path, sample, size}');
  return files.map((f: unknown, i) => {
    const { path, size } = (f ?? {}) as { path?: unknown; size?: unknown };
    if (typeof path !== 'string' || path === '') throw badRequest(`files[${i}].path must be a non-empty string`);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) throw badRequest(`files[${i}].size must be a number of bytes`);
    return { path, size };
  });
}

function ignorer(text: string | null): (path: string) => boolean {
  if (text === null) return () => false;
  const ig = ignore().add(text);
  return (path) => {
    try { return ig.ignores(path); } catch { return false; }
  };
}

export async function uploadModes(
  ctx: HubContext, repo: StoredRepo, sha: string, files: unknown, gitIgnore: unknown,
): Promise<PreuploadFile[]> {
  const wanted = asked(files);
  if (gitIgnore !== undefined && gitIgnore !== null && typeof gitIgnore !== 'string') throw badRequest('`gitIgnore` must be the text of a .gitignore');
  const tree = await ctx.git.tree(repo.type, repo.repoId, sha);
  const byPath = new Map(tree.filter((e) => e.type === 'file').map((e) => [e.path, e]));
  const text = async (path: string): Promise<string | null> => {
    const e = byPath.get(path);
    return e && !e.lfs ? (await ctx.git.blob(repo.type, repo.repoId, e.oid)).toString('utf8') : null;
  };
  const rules = parseLfsRules((await text('.gitattributes')) ?? '');
  const ignored = ignorer(typeof gitIgnore === 'string' ? gitIgnore : await text('.gitignore'));
  return wanted.map(({ path, size }) => {
    const out: PreuploadFile = {
      path,
      uploadMode: size > MAX_REGULAR_FILE_BYTES || tracksWithLfs(rules, path) ? 'lfs' : 'regular',
      shouldIgnore: ignored(path),
    };
    const known = byPath.get(path);
    if (known) out.oid = known.lfs ? known.lfs.oid : known.oid;
    return out;
  });
}
