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
  published: { app: string; folder: string }[];
}

export function whereLines(w: WhereInput): string[] {
  const names = Object.keys(w.config.robots);
  const width = Math.max(5, ...names.map((n) => n.length));
  const local = new Set(w.robots.map((r) => r.spec.name));
  const robotLines = Object.values(w.config.robots).map((r) =>
    `    ${r.name.padEnd(width)}  ${r.url}/${local.has(r.name) ? `  (simulated, runs ${r.active ?? 'no app'})` : '  (not on this machine: not started)'}`);
  const endpoints = (w.config.receiver?.endpoints ?? []).map((e) => `POST ${w.agentUrl}/webhooks/${e.name}`);
  const lines = [
    '',
    `  hub         ${w.hubUrl}   (user ${w.user}; token in ${w.tokenFile})`,
    `  fleet page  ${w.agentUrl}/   (JSON: ${w.agentUrl}/status)`,
    ...(endpoints.length > 0 ? [`  receiver    ${endpoints.join(', ')}`] : []),
    '  robots (dashboards):',
    ...robotLines,
    '',
  ];
  const example = w.published[0];
  if (example) {
    const path = shown(w.cwd, example.folder);
    lines.push(
      `Next: edit ${path} and publish it; the robots that have ${example.app} redeploy it within seconds:`,
      `  export HF_ENDPOINT=${w.hubUrl}`,
      `  export HF_TOKEN="$(cat ${w.tokenFile})"`,
      `  robotctl app publish ${path}`,
      `Or edit ${shown(w.cwd, w.config.file)}: a save is applied at once.`,
      '',
    );
  }
  lines.push('Ctrl-C stops everything (agent, robots and their apps, hub).');
  return lines;
}

/** Relative to the working folder when inside it, else absolute. */
function shown(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}
