import t from 'tap';
import { unhealthyApp, unhealthyDaemon } from '../../reconciler/execute/health-gate.js';
import { appFailureReason } from '../../reconciler/execute/app-reason.js';
import type { AppStatus } from '../../lib/wire/daemon.js';

// The health gate's verdicts, in the robot's own words: the daemon's error
// for a crash is `Process exited with code <rc>` and the app's last stderr
// lines (spec §9), whose last line is the exception.

const info = { name: 'hello_app', source_kind: 'installed' as const, description: '', url: null, extra: {} };
const status = (state: AppStatus['state'], error: string | null = null): AppStatus => ({ info, state, error });
const TRACEBACK = 'Process exited with code 1\nTraceback (most recent call last):\n  File "/x/main.py", line 9, in main\n    raise RuntimeError("boom")\nRuntimeError: boom\n';

t.test('the app\'s reason is the last line of its error, with the exit code', async (t) => {
  t.equal(appFailureReason({ error: TRACEBACK }), 'RuntimeError: boom (exit code 1)');
  t.equal(appFailureReason({ error: 'Process exited with code -9' }), 'exit code -9');
  t.equal(appFailureReason({ error: null }), 'no error message');
  t.equal(appFailureReason({ error: 'something else\nlast words' }), 'last words');
});

t.test('inside the window: a crash, an exit, a restart, a stop, another app all fail the robot', async (t) => {
  t.equal(unhealthyApp('hello_app', status('running'), '1.0'), null);
  t.equal(unhealthyApp('hello_app', status('error', TRACEBACK), '2.1'), 'hello_app crashed 2.1 s after it started: RuntimeError: boom (exit code 1)');
  t.match(unhealthyApp('hello_app', status('done'), '3.0'), /^hello_app exited 3\.0 s after it started \(exit code 0\)/);
  t.equal(unhealthyApp('hello_app', status('starting'), '3.0'), 'hello_app restarted 3.0 s after it started');
  t.match(unhealthyApp('hello_app', status('stopping'), '3.0'), /being stopped by someone else/);
  t.equal(unhealthyApp('hello_app', null, '1.5'), 'hello_app stopped 1.5 s after it started (no app runs)');
  t.equal(unhealthyApp('hello_app', { ...status('running'), info: { ...info, name: 'other' } }, '1.5'), 'hello_app stopped 1.5 s after it started (other runs instead)');
});

t.test('the daemon must be running with no error, its backend\'s included', async (t) => {
  t.equal(unhealthyDaemon({ robot_name: 'desk', state: 'running', error: null, backend_status: { error: null } }), null);
  t.equal(unhealthyDaemon({ robot_name: 'desk', state: 'error', error: 'motor 3 overheated' }), 'is error (motor 3 overheated)');
  t.equal(unhealthyDaemon({ robot_name: 'desk', state: 'running', error: 'lost the camera' }), 'reports an error: lost the camera');
  t.equal(unhealthyDaemon({ robot_name: 'desk', state: 'running', error: null, backend_status: { error: 'serial port closed' } }), 'reports a backend error: serial port closed');
});
