import { isAbsolute, relative } from 'node:path';
import type { Config } from '../../schema/types.js';
import type { LocalRobot } from './robots.js';
import type { PublishOutcome } from './publish.js';
import { lineOf, type RobotctlCommand } from '../views/command-line.js';
import { shellWord } from '../../lib/command-line.js';

// The block `up` prints once everything runs: where each piece is and what
// to try next. The hub token is never printed: it sits in a 0600 file and
// the shell lines read it from there. Every command is written to work as
// pasted into another terminal in the working folder (`robotctl` only when
// that is this clone's on the PATH: cli/views/command-line.ts), and every URL opens in
// a browser (the hub's root and /spaces/<user>/<app> are its pages).

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
  published: PublishOutcome[];
  /** Where the hint clones an app's Space (under up's data folder), and whether it is there already. */
  clone: { dir: string; exists: boolean };
  /** How to run robotctl from `cwd` (`robotctl`, or `node bin/robotctl.js`), and whether that is `robotctl` on the PATH. */
  robotctl: RobotctlCommand;
}

export function whereLines(w: WhereInput): string[] {
  const names = Object.keys(w.config.robots);
  const width = Math.max(5, ...names.map((n) => n.length));
  const local = new Set(w.robots.map((r) => r.spec.name));
  const robotLines = Object.values(w.config.robots).map((r) =>
    `    ${r.name.padEnd(width)}  ${r.url === null ? `(hardware id ${r.hardwareId ?? '?'}, found over mDNS)` : `${r.url}/`}  ${local.has(r.name) ? `(simulated, ${runsText(r.active, w.running[r.name] ?? null)})` : '(not on this machine: not started)'}`);
  const endpoints = (w.config.receiver?.endpoints ?? []).map((e) => `POST ${w.agentUrl}/webhooks/${e.name}`);
  const lines = [
    '',
    `  hub         ${w.hubUrl}   (user ${w.user}; token in ${shown(w.cwd, w.tokenFile)})`,
    `  fleet page  ${w.agentUrl}/   (JSON: ${w.agentUrl}/status)`,
    ...(endpoints.length > 0 ? [`  receiver    ${endpoints.join(', ')}`] : []),
    '  robots (dashboards):',
    ...robotLines,
    // Only where multicast works here: elsewhere the command would find nothing.
    ...(w.robots.some((r) => r.daemon.advertised()) ? [`  discover    ${lineOf(w.robotctl, 'robots discover')}   (the simulated robots answer over mDNS on this machine)`] : []),
    '',
  ];
  const example = w.published[0];
  if (example) lines.push(...nextLines(w, example), `Or edit ${shown(w.cwd, w.config.file)}: a save is applied at once.`, '');
  lines.push('Ctrl-C stops everything (agent, robots and their apps, hub).');
  return lines;
}

/** What up said of an example whose Space has commits its folder does not have: kept, and how to get them or replace them. */
export function aheadLines(o: PublishOutcome, w: Pick<WhereInput, 'cwd' | 'hubUrl' | 'user' | 'robotctl'> & { clone: { dir: string; exists: boolean } }): string[] {
  const folder = shown(w.cwd, o.folder);
  return [
    `Space ${o.space} has commits that ${folder} does not have (it is at ${(o.sha ?? '').slice(0, 7)}${o.folderChanged ? '; the folder changed too' : ''}): `
      + 'kept as it is, not published over; the robots keep running it. To get them:',
    ...getCloneLines(w, o.app, w.clone),
    `To publish the folder over them instead: ${lineOf(w.robotctl, `app publish ${shellWord(folder)}`)} (with HF_ENDPOINT and HF_TOKEN exported as "Next:" shows)`,
  ];
}

/**
 * The loop app authors use, as shell lines that work as written from the
 * working folder: publish the folder, or clone the Space and `git push`.
 * git takes the token from $HF_TOKEN through a credential helper kept in the
 * clone, so it never sits in a command line, a URL or the clone's config;
 * the clone carries its own author so a machine without a git identity can
 * commit. When the Space is ahead of its folder, only the git loop is
 * offered: a publish of the folder would replace what was pushed.
 */
function nextLines(w: WhereInput, example: PublishOutcome): string[] {
  const clone = shown(w.cwd, w.clone.dir);
  const remote = `${w.hubUrl}/spaces/${w.user}/${example.app}`;
  const exports = [
    `  export HF_ENDPOINT=${w.hubUrl}`,
    `  export HF_TOKEN="$(cat ${shown(w.cwd, w.tokenFile)})"`,
  ];
  const git = [
    ...getCloneLines(w, example.app, w.clone),
    `  echo "# tweak" >> ${clone}/README.md`,
    `  git -C ${clone} commit -am "Tweak" && git -C ${clone} push`,
  ];
  const linkNote = w.robotctl.onPath ? [] : [`(${w.robotctl.command} is this clone's robotctl: \`npm link\` here once gives you the \`robotctl\` command.)`];
  if (example.outcome === 'ahead') {
    return [
      `Next: change ${example.app} in its Space's clone and push it (the Space is ahead of ${shown(w.cwd, example.folder)}); the robots that have it redeploy it within seconds.`,
      `In another terminal, here (the Space's remote is ${remote}, the token its password):`,
      ...exports,
      ...git,
    ];
  }
  return [
    `Next: change ${example.app} and publish it; the robots that have it redeploy it within seconds. In another terminal, here:`,
    ...exports,
    `  ${lineOf(w.robotctl, `app publish ${shellWord(shown(w.cwd, example.folder))}`)}`,
    ...linkNote,
    `or with git, as Space authors work (the Space's remote is ${remote}, the token its password):`,
    ...git,
  ];
}

/** `git -C <clone> pull` when the clone is there, else the clone with its credential helper and author. */
function getCloneLines(w: Pick<WhereInput, 'cwd' | 'hubUrl' | 'user'>, app: string, clone: { dir: string; exists: boolean }): string[] {
  const dir = shown(w.cwd, clone.dir);
  if (clone.exists) return [`  git -C ${dir} pull`];
  const helper = `'!f() { echo username=${w.user}; echo "password=$HF_TOKEN"; }; f'`;
  return [
    `  git clone -c credential.helper=${helper} \\`,
    `    -c user.name=${w.user} -c user.email=${w.user}@localhost ${w.hubUrl}/spaces/${w.user}/${app} ${dir}`,
  ];
}

function runsText(wanted: string | null, running: string | null): string {
  if (running === wanted) return running === null ? 'no app running' : `runs ${running}`;
  const now = running === null ? 'no app running' : `runs ${running}`;
  return wanted === null ? now : `${now}; ${wanted} should run: see the fleet page`;
}

/** Relative to the working folder when inside it, else absolute. */
export function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
