import { pythonCommand, runProcess } from '../../lib/python-apps/process.js';

// Whether `app check` installs an app with its dependencies from the package
// index (as the real assistant does) or offline with robotctl's reachy_mini
// stand-in. pip's own settings decide first (PIP_NO_INDEX); otherwise the
// index (PIP_INDEX_URL, else PyPI) is probed by Python itself for a few seconds.

export type IndexMode = { online: true; url: string } | { online: false; reason: string };

const DEFAULT_INDEX = 'https://pypi.org/simple/';
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

export async function packageIndex(env: NodeJS.ProcessEnv, opts: { offline?: boolean; probeSeconds?: number } = {}): Promise<IndexMode> {
  if (opts.offline) return { online: false, reason: '--offline' };
  if (truthy(env.PIP_NO_INDEX)) return { online: false, reason: 'PIP_NO_INDEX is set' };
  const url = env.PIP_INDEX_URL || DEFAULT_INDEX;
  const seconds = opts.probeSeconds ?? 3;
  const r = await runProcess(pythonCommand(env), ['-c', PROBE, url, String(seconds)], { env, timeoutMs: (seconds + 2) * 1000 });
  if (r.code === 0) return { online: true, url };
  return { online: false, reason: `the package index ${url.replace(/\/\/[^/@]*@/, '//')} is unreachable` };
}
