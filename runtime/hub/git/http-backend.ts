import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { gitEnv } from './run-git.js';

// Runs git's own smart-HTTP server side, `git http-backend`, as the CGI it is:
// request facts in the environment, the body on stdin, CGI headers then the
// body on stdout. We never speak the git protocol ourselves.

export interface CgiRequest {
  projectRoot: string;
  /** /<type>s/<owner>/<name>.git/info/refs … */
  pathInfo: string;
  method: string;
  query: string;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  gitProtocol: string | undefined;
  /** core.hooksPath for receive-pack: the hub's pre-receive checks (git/pre-receive.ts). */
  hooksPath: string;
  /** Set only for an authenticated caller: git enables receive-pack for them alone. */
  remoteUser: string | null;
  body: Readable | null;
}

function headerEnd(buf: Buffer): { at: number; len: number } | null {
  const crlf = buf.indexOf('\r\n\r\n');
  if (crlf >= 0) return { at: crlf, len: 4 };
  const lf = buf.indexOf('\n\n');
  return lf >= 0 ? { at: lf, len: 2 } : null;
}

function writeHead(res: ServerResponse, head: string): void {
  let status = 200;
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  res.writeHead(status, headers);
}

/** Resolves when the response is complete; the caller decides what a push changed. */
export function runHttpBackend(req: CgiRequest, res: ServerResponse): Promise<number> {
  const env: Record<string, string> = {
    GIT_PROJECT_ROOT: req.projectRoot, PATH_INFO: req.pathInfo, REQUEST_METHOD: req.method, QUERY_STRING: req.query,
    GIT_HTTP_EXPORT_ALL: '1', REMOTE_ADDR: '127.0.0.1',
    // Passed as configuration of this run only, so no repo carries a hooks folder of its own.
    GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: req.hooksPath,
  };
  if (req.contentType) env.CONTENT_TYPE = req.contentType;
  if (req.contentEncoding) env.HTTP_CONTENT_ENCODING = req.contentEncoding;
  if (req.gitProtocol) env.GIT_PROTOCOL = req.gitProtocol;
  if (req.remoteUser) env.REMOTE_USER = req.remoteUser;
  return new Promise((resolve) => {
    const child = spawn('git', ['http-backend'], { env: gitEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let pending: Buffer | null = Buffer.alloc(0);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString('utf8').slice(0, 2000); });
    child.stdout.on('data', (d: Buffer) => {
      if (pending === null) { res.write(d); return; }
      pending = Buffer.concat([pending, d]);
      const end = headerEnd(pending);
      if (!end) return;
      writeHead(res, pending.subarray(0, end.at).toString('latin1'));
      const rest = pending.subarray(end.at + end.len);
      pending = null;
      if (rest.length > 0) res.write(rest);
    });
    child.on('close', (code) => {
      if (pending !== null && !res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.write(`git http-backend failed: ${stderr.trim()}\n`);
      }
      res.end();
      resolve(code ?? -1);
    });
    child.on('error', () => { /* reported by close */ });
    child.stdin.on('error', () => {});
    if (req.body) req.body.pipe(child.stdin);
    else child.stdin.end();
  });
}
