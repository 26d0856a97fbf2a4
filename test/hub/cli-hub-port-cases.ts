import t from 'tap';
import { spawn } from 'node:child_process';
import { bin, runCli } from '../helpers/cli.js';
import { until } from '../helpers/wait.js';

// Like `up`'s hub, `robotctl hub` serves on 7870 unless told otherwise, so
// HF_ENDPOINT and git remotes written for one work with the other. A second
// hub on the taken port says how to choose another. Run inside the private
// network namespace of cli-hub-port.test.ts.

t.test('robotctl hub without --port serves on 7870; a taken port says to pass --port', async (t) => {
  const first = spawn(process.execPath, [bin, 'hub'], { stdio: ['ignore', 'pipe', 'ignore'] });
  t.teardown(() => { if (first.exitCode === null) first.kill('SIGKILL'); });
  let out = '';
  first.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  await until(() => out.includes('\n'), 60_000, 'the hub\'s first line');
  t.equal(out.split('\n')[0], 'listening on http://127.0.0.1:7870');
  const second = await runCli(['hub']);
  t.equal(second.code, 1);
  t.match(second.stderr, /^Error: cannot start the hub on 127\.0\.0\.1:7870: .*EADDRINUSE.* \(pass --port N, or --port 0 for any free port\)\n$/);
  first.kill('SIGINT');
  t.equal(await new Promise((resolve) => first.on('exit', resolve)), 0);
});
