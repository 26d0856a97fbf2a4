import t from 'tap';
import { spawn } from 'node:child_process';
import { bin, repoRoot } from '../helpers/cli.js';

// `robotctl plan | head`: the reader closes before robotctl is done writing.
// The writes that fail (EPIPE) must not crash the process with a stack trace;
// the command ends normally with its own exit code.

function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // Our end of the pipe is closed before the child has started: its first write fails.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

t.test('a closed stdout ends output quietly: no stack trace, the exit code of the command', async (t) => {
  const help = await withClosedStdout(['--help']);
  t.equal(help.code, 0, 'exit 0, as with an open stdout');
  t.notMatch(help.stderr, /EPIPE|Error|at /, `no error printed: ${help.stderr}`);

  const valid = await withClosedStdout(['validate', '-f', 'examples/fleet.yaml']);
  t.equal(valid.code, 0);
  t.notMatch(valid.stderr, /EPIPE|Error|at /, `no error printed: ${valid.stderr}`);

  // A usage error still reports on stderr, which is open.
  const unknown = await withClosedStdout(['frobnicate']);
  t.equal(unknown.code, 64);
  t.match(unknown.stderr, /unknown command 'frobnicate'/);
});
