import { spawn } from 'node:child_process';
import { bin, repoRoot } from './cli.js';

// Runs the built CLI on a pseudo-terminal (Python's pty module: no native
// addon), answering each prompt when its text appears. Returns what the
// terminal showed and the exit code.
const DRIVER = [
  'import json, os, pty, sys',
  'answers = json.loads(sys.argv[1])',
  'pid, fd = pty.fork()',
  'if pid == 0:',
  '    os.execvp(sys.argv[2], sys.argv[2:])',
  'out = b""',
  'while True:',
  '    try:',
  '        data = os.read(fd, 1024)',
  '    except OSError:',
  '        break',
  '    if not data:',
  '        break',
  '    out += data',
  '    if answers and answers[0][0].encode() in out:',
  '        os.write(fd, answers.pop(0)[1].encode())',
  '_, status = os.waitpid(pid, 0)',
  'sys.stdout.write(out.decode(errors="replace"))',
  'sys.exit(os.waitstatus_to_exitcode(status))',
].join('\n');

export interface PtyAnswer {
  /** Text that must appear on the terminal before the answer is typed. */
  when: string;
  send: string;
}

export function runInPty(
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; answers: PtyAnswer[] },
): Promise<{ code: number | null; output: string }> {
  const answers = JSON.stringify(opts.answers.map((a) => [a.when, a.send]));
  const child = spawn('python3', ['-c', DRIVER, answers, process.execPath, bin, ...args], {
    cwd: opts.cwd ?? repoRoot,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
