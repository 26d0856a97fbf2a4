// Whether installs can use a package index, decided like pip would: pip's
// own settings first (PIP_NO_INDEX), then the daemon's --offline, then a
// probe of the index pip would use (PIP_INDEX_URL, else PyPI) for a few
// seconds. Any HTTP answer means reachable. The answer is kept a minute so a
// run of installs probes once, and shared by every daemon in the process (the
// robots of `--robots N` installing at once wait on one probe, not N); after
// the minute it is renewed in the background (only the first install waits).

export type IndexMode = { online: true; url: string } | { online: false; reason: string };

const DEFAULT_INDEX = 'https://pypi.org/simple/';
const KEEP_MS = 60_000;

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== '' && !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
}

/** The index URL without credentials, for logs. */
export function shownUrl(url: string): string {
  return url.replace(/\/\/[^/@]*@/, '//');
}

async function probe(url: string, ms: number): Promise<boolean> {
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(ms), redirect: 'manual' });
    return true;
  } catch {
    return false;
  }
}

const probes = new Map<string, { at: number; mode: Promise<IndexMode> }>();

export function indexModeCache(env: NodeJS.ProcessEnv, opts: { offline?: boolean; probeMs?: number; now?: () => number } = {}): () => Promise<IndexMode> {
  const now = opts.now ?? Date.now;
  return async () => {
    if (opts.offline) return { online: false, reason: '--offline' };
    if (truthy(env.PIP_NO_INDEX)) return { online: false, reason: 'PIP_NO_INDEX is set' };
    const url = env.PIP_INDEX_URL || DEFAULT_INDEX;
    const ms = opts.probeMs ?? 3000;
    const key = `${ms} ${url}`;
    const cached = probes.get(key);
    if (cached && now() - cached.at < KEEP_MS) return cached.mode;
    const mode: Promise<IndexMode> = probe(url, ms).then((up) => (up
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
