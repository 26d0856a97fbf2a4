import { dirname, join, resolve } from 'node:path';
import { UserError, UsageError } from '../lib/errors.js';
import { durationMs } from '../lib/duration.js';
import { DEFAULT_LEASE_MS } from './hub-store.js';

// Which backend holds the state: `--state`, else ROBOTCTL_STATE, else the
// `state:` block of robot.yaml (read by schema/, ${VAR} substituted, and
// passed in), else the local file beside robot.yaml.

export type BackendSpec =
  | { backend: 'local'; path: string }
  | { backend: 'hub'; repo: string; path: string; leaseMs: number; endpoint: string | null }
  | { backend: 'postgres'; url: string | null; table: string; key: string; leaseMs: number };

export const STATE_ENV = 'ROBOTCTL_STATE';
const REPO_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface SpecSources {
  /** robot.yaml (absolute): the default local path is beside it. */
  configFile: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** --state as given. */
  flag?: string | null | undefined;
  /** robot.yaml's `state:` block (null: none), asked for only when neither the flag nor the variable names a backend. */
  block: () => Record<string, unknown> | null;
}

/** The local state's place, relative to robot.yaml's folder, when nothing names another. */
export const LOCAL_STATE_FILE = join('.robotctl', 'state.json');

export function defaultLocalPath(configFile: string): string {
  return join(dirname(resolve(configFile)), LOCAL_STATE_FILE);
}

export function resolveBackend(src: SpecSources): BackendSpec {
  if (src.flag) return parseSpec(src.flag, src.cwd, '--state');
  const fromEnv = src.env[STATE_ENV]?.trim();
  if (fromEnv) return parseSpec(fromEnv, src.cwd, STATE_ENV);
  const block = src.block();
  return block ? specOfBlock(block, src.configFile) : { backend: 'local', path: defaultLocalPath(src.configFile) };
}

/**
 * A backend in one string: `local`, `local:PATH` or a path; `hub:OWNER/NAME`;
 * `postgres` (PG* variables) or a `postgres://…` URL.
 */
export function parseSpec(text: string, cwd: string, origin: string): BackendSpec {
  if (text === 'postgres' || text === 'postgresql') return { backend: 'postgres', url: null, table: 'robotctl_state', key: 'default', leaseMs: DEFAULT_LEASE_MS };
  if (/^postgres(ql)?:\/\//.test(text)) return { backend: 'postgres', url: text, table: 'robotctl_state', key: 'default', leaseMs: DEFAULT_LEASE_MS };
  if (text.startsWith('hub:')) {
    const repo = text.slice(4);
    if (!REPO_ID.test(repo)) throw new UsageError(`${origin}: hub:${repo} is not a repo id: write hub:OWNER/NAME (a private dataset, created on first use)`);
    return { backend: 'hub', repo, path: 'state.json', leaseMs: DEFAULT_LEASE_MS, endpoint: null };
  }
  if (text === 'local') throw new UsageError(`${origin}: write local:PATH (or a path) for a local state file`);
  const path = text.startsWith('local:') ? text.slice(6) : text;
  return { backend: 'local', path: resolve(cwd, path) };
}

function specOfBlock(b: Record<string, unknown>, configFile: string): BackendSpec {
  const field = (k: string): string | null => (typeof b[k] === 'string' && b[k] !== '' ? (b[k] as string) : null);
  const bad = (k: string, why: string): UserError => new UserError(`${configFile}: state.${k} ${why}`);
  const backend = b.backend ?? 'local';
  if (backend === 'local') return { backend: 'local', path: resolve(dirname(resolve(configFile)), field('path') ?? defaultLocalPath(configFile)) };
  if (backend === 'hub') {
    const repo = field('repo');
    if (!repo || !REPO_ID.test(repo)) throw bad('repo', 'must be OWNER/NAME: the private dataset that holds the state (created on first use)');
    return { backend: 'hub', repo, path: field('path') ?? 'state.json', leaseMs: leaseOf(b.lease, bad), endpoint: field('endpoint') };
  }
  if (backend === 'postgres') {
    return { backend: 'postgres', url: field('url'), table: field('table') ?? 'robotctl_state', key: field('key') ?? 'default', leaseMs: leaseOf(b.lease, bad) };
  }
  throw bad('backend', `must be local, hub or postgres, not ${JSON.stringify(backend)}`);
}

function leaseOf(v: unknown, bad: (k: string, why: string) => UserError): number {
  if (v === undefined) return DEFAULT_LEASE_MS;
  const ms = durationMs(v);
  if (ms === undefined) throw bad('lease', 'must be a duration such as 10s or 1m');
  if (ms < 1000) throw bad('lease', 'must be at least 1s');
  return ms;
}

export function describeSpec(spec: BackendSpec): string {
  if (spec.backend === 'local') return `local file ${spec.path}`;
  if (spec.backend === 'hub') return `hub dataset ${spec.repo} (${spec.path})`;
  return `postgres table ${spec.table} key ${spec.key}`;
}
