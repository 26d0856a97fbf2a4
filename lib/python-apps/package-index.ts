import { pythonCommand } from './python.js';
import { runProcess } from './process.js';

// Whether installs can use a package index, decided like pip would: pip's
// own settings first (PIP_NO_INDEX), then --offline, then a probe of the
// index pip would use (PIP_INDEX_URL, else PyPI) for a few seconds. The probe
// is made by Python, the interpreter pip runs in, so it sees the index as pip
// does (its proxies, its certificates) and robotctl's lower layers open no
// connection themselves; any HTTP answer means reachable.
// - packageIndex: `app check` asks once.
// - indexModeCache: the daemon keeps the answer a minute so a run of installs
//   probes once, shared by every daemon in the process (the robots of
//   `--robots N` installing at once wait on one probe, not N); after the
//   minute it is renewed in the background (only the first install waits).

export type IndexMode = { online: true; url: string } | { online: false; reason: string };

const DEFAULT_INDEX = 'https://pypi.org/simple/';
const KEEP_MS = 60_000;

const PROBE = [
  'import sys, urllib.request',
  'try:',
  '    urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="HEAD"), timeout=float(sys.argv[2])).close()',
  'except urllib.error.HTTPError:',
  '    pass',
  'except Exception as e:',
  '    print(e, file=sys.stderr); sys.exit(1)',
].join('\n');

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
}

/** The index URL without credentials, for logs. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

/** Offline and why when the settings say so without asking the index; else the index URL to ask. */
export function indexSetting(env: NodeJS.ProcessEnv, offline: boolean): { online: false; reason: string } | { url: string } {
  if (offline) return { online: false, reason: '--offline' };
  if (truthy(env.PIP_NO_INDEX)) return { online: false, reason: 'PIP_NO_INDEX is set' };
  return { url: env.PIP_INDEX_URL || DEFAULT_INDEX };
}

/** Whether the index answers within ms, asked by `python` with pip's environment. */
async function answers(url: string, ms: number, env: NodeJS.ProcessEnv, python: string): Promise<boolean> {
  const r = await runProcess(python, ['-c', PROBE, url, String(ms / 1000)], { env, timeoutMs: ms + 2000 });
  return r.code === 0;
}

/** `app check`: the mode, the index asked once. */
export async function packageIndex(env: NodeJS.ProcessEnv, opts: { offline?: boolean; probeSeconds?: number } = {}): Promise<IndexMode> {
  const set = indexSetting(env, opts.offline === true);
  if (!('url' in set)) return set;
  if (await answers(set.url, (opts.probeSeconds ?? 3) * 1000, env, pythonCommand(env))) return { online: true, url: set.url };
  return { online: false, reason: `the package index ${shownUrl(set.url)} is unreachable` };
}

const probes = new Map<string, { at: number; mode: Promise<IndexMode> }>();

/** The daemon: the mode for each install, the answer of the index kept a minute and renewed beside the installs. */
export function indexModeCache(env: NodeJS.ProcessEnv, opts: { offline?: boolean; probeMs?: number; now?: () => number; python?: string } = {}): () => Promise<IndexMode> {
  const now = opts.now ?? Date.now;
  return async () => {
    const set = indexSetting(env, opts.offline === true);
    if (!('url' in set)) return set;
    const { url } = set;
    const ms = opts.probeMs ?? 3000;
    const key = `${ms} ${url}`;
    const cached = probes.get(key);
    if (cached && now() - cached.at < KEEP_MS) return cached.mode;
    const mode: Promise<IndexMode> = answers(url, ms, env, opts.python ?? pythonCommand(env)).then((up) => (up
      ? { online: true, url }
      : { online: false, reason: `the package index ${shownUrl(url)} did not answer within ${ms / 1000} s` }));
    probes.set(key, { at: now(), mode: cached ? cached.mode : mode });
    // An older answer serves this install while the probe runs beside it: an
    // index that does not answer costs the probe's seconds once, not on every
    // install a minute apart. The fresh answer serves the installs after it.
    if (!cached) return mode;
    void mode.then((fresh) => { if (probes.get(key)?.mode === cached.mode) probes.set(key, { at: now(), mode: Promise.resolve(fresh) }); });
    return cached.mode;
  };
}
