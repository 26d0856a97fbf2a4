import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bin, repoRoot } from '../helpers/cli.js';

// Shared pieces of the end-to-end tests: the secret we hunt for in every
// output, a quiet app (examples/ apps move the head, i.e. write to the
// daemon all the time, which would hide the reconciler's own writes), and a
// CLI child we can signal.

export const USER = { name: 'alice', token: 'hf_alice_e2e_token_0042' };
export const SECRET = 'e2e-webhook-secret-never-print-me';


export function env(hubUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { HF_ENDPOINT: hubUrl, HF_TOKEN: USER.token, WEBHOOK_SECRET: SECRET, HF_HOME: '/nonexistent-robotctl-e2e', ...extra };
}

export function writeYaml(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

export interface Child {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name). */
  exited: Promise<number | string>;
  /** Resolves (checked on every chunk) once stdout matches `re` at least `count` times. */
  waitFor(re: RegExp, count?: number, timeoutMs?: number): Promise<void>;
}

/** The built CLI as a child process we can signal (runCli only waits). */
export function spawnCli(args: string[], opts: { env: NodeJS.ProcessEnv; cwd: string }): Child {
  const proc = spawn(process.execPath, [bin, ...args], { cwd: opts.cwd ?? repoRoot, env: { ...process.env, NO_COLOR: '1', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: (() => void)[] = [];
  proc.stdout?.on('data', (d: Buffer) => { out += d.toString(); waiters.forEach((w) => w()); });
  proc.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
  const exited = new Promise<number | string>((r) => proc.on('close', (code, signal) => r(code ?? signal ?? -1)));
  return {
    proc, exited, stdout: () => out, stderr: () => err,
    waitFor: (re, count = 1, timeoutMs = 20_000) => new Promise<void>((resolve, reject) => {
      const global = new RegExp(re.source, 'g');
      const check = (): void => {
        if ((out.match(global) ?? []).length >= count) { clearTimeout(timer); resolve(); }
      };
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${count} × ${String(re)} in:\n${out}\n${err}`)), timeoutMs);
      waiters.push(check);
      void exited.then(() => { clearTimeout(timer); reject(new Error(`robotctl exited before printing ${count} × ${String(re)}:\n${out.slice(-2000)}\n${err}`)); });
      check();
    }),
  };
}

export interface UpFleet {
  receiver: number;
  /** Robot name → its port (and its own active app, if not the fleet's). */
  robots: Record<string, number | { port: number; active: string }>;
  /** Apps from Spaces `demo/<app>` (on up's hub, through their huggingface.co URLs). */
  apps: string[];
  active: string;
  /** With a webhook watching these apps' Spaces, signed with ${WEBHOOK_SECRET} as the receiver checks it. */
  watched?: string[];
}

/** A robot.yaml for `robotctl up` on free ports: its robots, receiver, apps and webhook. */
export function upFleetYaml(o: UpFleet): string {
  const signed = o.watched !== undefined;
  const webhook = signed
    ? `webhooks:\n  redeploy-apps:\n    url: http://127.0.0.1:${o.receiver}/webhooks/redeploy\n    watched:\n${o.watched?.map((a) => `      - space:demo/${a}\n`).join('') ?? ''}    domains: [repo]\n    secret: \${WEBHOOK_SECRET}\n`
    : '';
  const robots = Object.entries(o.robots).map(([name, r]) =>
    typeof r === 'number' ? `  ${name}: { url: http://127.0.0.1:${r} }\n` : `  ${name}: { url: http://127.0.0.1:${r.port}, active: ${r.active} }\n`).join('');
  return `version: 1
${webhook}apps:
${o.apps.map((a) => `  ${a}: { source: https://huggingface.co/spaces/demo/${a} }\n`).join('')}active: ${o.active}
robots:
${robots}rollout: { healthy_for: 1.5s }
receiver:
  port: ${o.receiver}
${signed ? '  secret: ${WEBHOOK_SECRET}\n' : ''}  endpoints:
    redeploy: { action: reconcile }
`;
}
