import { isAbsolute, relative } from 'node:path';
import type { Config } from '../../schema/types.js';
import type { LocalRobot } from './robots.js';

// The block `up` prints once everything runs: where each piece is and what
// to try next. The hub token is never printed: it sits in a 0600 file and
// the shell lines read it from there.

export interface WhereInput {
  config: Config;
  cwd: string;
  hubUrl: string;
  user: string;
  tokenFile: string;
  agentUrl: string;
  robots: LocalRobot[];
  /** What each local robot runs now (robot name → app, null for none): said as it is, not as the file wants it. */
  running: Record<string, string | null>;
  published: { app: string; folder: string }[];
  /** Where the hint clones an app's Space (under up's data folder), and whether it is there already. */
  clone: { dir: string; exists: boolean };
}

export function whereLines(w: WhereInput): string[] {
  const names = Object.keys(w.config.robots);
  const width = Math.max(5, ...names.map((n) => n.length));
  const local = new Set(w.robots.map((r) => r.spec.name));
  const robotLines = Object.values(w.config.robots).map((r) =>
    `    ${r.name.padEnd(width)}  ${r.url}/  ${local.has(r.name) ? `(simulated, ${runsText(r.active, w.running[r.name] ?? null)})` : '(not on this machine: not started)'}`);
  const endpoints = (w.config.receiver?.endpoints ?? []).map((e) => `POST ${w.agentUrl}/webhooks/${e.name}`);
  const lines = [
    '',
    `  hub         ${w.hubUrl}   (user ${w.user}; token in ${shown(w.cwd, w.tokenFile)})`,
    `  fleet page  ${w.agentUrl}/   (JSON: ${w.agentUrl}/status)`,
    ...(endpoints.length > 0 ? [`  receiver    ${endpoints.join(', ')}`] : []),
    '  robots (dashboards):',
    ...robotLines,
    // Only where multicast works here: elsewhere the command would find nothing.
    ...(w.robots.some((r) => r.daemon.advertised()) ? ['  discover    robotctl robots discover   (the simulated robots answer over mDNS on this machine)'] : []),
    '',
  ];
  const example = w.published[0];
  if (example) lines.push(...nextLines(w, example), `Or edit ${shown(w.cwd, w.config.file)}: a save is applied at once.`, '');
  lines.push('Ctrl-C stops everything (agent, robots and their apps, hub).');
  return lines;
}

/**
 * The loop app authors use, as shell lines that work as written from the
 * working folder (with the README's `npm link` for `robotctl`): publish the
 * folder, or clone the Space and `git push`. git takes the token from
 * $HF_TOKEN through a credential helper kept in the clone, so it never sits
 * in a command line, a URL or the clone's config; the clone carries its own
 * author so a machine without a git identity can commit.
 */
function nextLines(w: WhereInput, example: { app: string; folder: string }): string[] {
  const clone = shown(w.cwd, w.clone.dir);
  const remote = `${w.hubUrl}/spaces/${w.user}/${example.app}`;
  const helper = `'!f() { echo username=${w.user}; echo "password=$HF_TOKEN"; }; f'`;
  const getClone = w.clone.exists
    ? [`  git -C ${clone} pull`]
    : [
        `  git clone -c credential.helper=${helper} \\`,
        `    -c user.name=${w.user} -c user.email=${w.user}@localhost ${remote} ${clone}`,
      ];
  return [
    `Next: change ${example.app} and publish it; the robots that have it redeploy it within seconds. In another terminal, here:`,
    `  export HF_ENDPOINT=${w.hubUrl}`,
    `  export HF_TOKEN="$(cat ${shown(w.cwd, w.tokenFile)})"`,
    `  robotctl app publish ${shown(w.cwd, example.folder)}`,
    `or with git, as Space authors work (the Space's remote is ${remote}, the token its password):`,
    ...getClone,
    `  echo "# tweak" >> ${clone}/README.md`,
    `  git -C ${clone} commit -am "Tweak" && git -C ${clone} push`,
  ];
}

function runsText(wanted: string | null, running: string | null): string {
  if (running === wanted) return running === null ? 'no app running' : `runs ${running}`;
  const now = running === null ? 'no app running' : `runs ${running}`;
  return wanted === null ? now : `${now}; ${wanted} should run: see the fleet page`;
}

/** Relative to the working folder when inside it, else absolute. */
function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
