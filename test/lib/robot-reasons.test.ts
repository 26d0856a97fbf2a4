import t from 'tap';
import { crashReason, jobFailureReason, logTail } from '../../lib/robot-reasons.js';

// Issue 30.1/30.2: a failure in the robot's own words, from the logs Pollen's
// daemon wrote when robotctl drove it (spec §9 Install failures, Crashes).

const PYTHON_TOO_OLD = [
  'Downloading HuggingFace Space: demo/bad_rt',
  'Space found: demo/bad_rt (private=False)',
  'Running command: /venvs/apps_venv/bin/python -m pip install /root/.cache/huggingface/hub/spaces--demo--bad_rt/snapshots/abc',
  'Processing /root/.cache/huggingface/hub/spaces--demo--bad_rt/snapshots/abc',
  "\x1b[31mERROR: Package 'bad-rt' requires a different Python: 3.11.7 not in '>=3.99'\x1b[0m\x1b[31m",
  "\x1b[0m",
  "Job 'install' failed with error: Failed to install app 'bad_rt'",
];

t.test('pip\'s ERROR line, without its colours, is the reason; the job\'s own line is not', async (t) => {
  t.same(jobFailureReason(PYTHON_TOO_OLD), ["ERROR: Package 'bad-rt' requires a different Python: 3.11.7 not in '>=3.99'"]);
});

t.test('several ERROR lines and a traceback: each once, in order, the exception last, at most five', async (t) => {
  const logs = [
    'ERROR: Could not find a version that satisfies the requirement libusb-package>=1.0.26.3 (from versions: none)',
    'ERROR: No matching distribution found for libusb-package>=1.0.26.3',
    'ERROR: No matching distribution found for libusb-package>=1.0.26.3',
    'Traceback (most recent call last):',
    '  File "setup.py", line 3, in <module>',
    '    raise SystemExit("no")',
    'ModuleNotFoundError: No module named \'numpy\'',
    "Job 'install' failed with error: Failed to install app 'x'",
  ];
  t.same(jobFailureReason(logs), [
    'ERROR: Could not find a version that satisfies the requirement libusb-package>=1.0.26.3 (from versions: none)',
    'ERROR: No matching distribution found for libusb-package>=1.0.26.3',
    "ModuleNotFoundError: No module named 'numpy'",
  ]);
  const many = Array.from({ length: 8 }, (_, i) => `ERROR: problem ${i}`);
  t.same(jobFailureReason(many), ['ERROR: problem 3', 'ERROR: problem 4', 'ERROR: problem 5', 'ERROR: problem 6', 'ERROR: problem 7'], 'the last five');
});

t.test('uv\'s and setuptools\' lowercase error lines count', async (t) => {
  t.same(jobFailureReason(["error: could not create 'build/lib/build/lib/x': File exists", 'ERROR: Failed building wheel for x']),
    ["error: could not create 'build/lib/build/lib/x': File exists", 'ERROR: Failed building wheel for x']);
});

t.test('without an ERROR line, the error the job\'s last line names', async (t) => {
  t.same(jobFailureReason(['Removing app', "Job 'remove' failed with error: Cannot uninstall app 'x': it is not installed"]), ["Cannot uninstall app 'x': it is not installed"]);
  t.same(jobFailureReason([]), ['no log']);
});

t.test('a crash: the exception of the traceback, else the last line the app wrote', async (t) => {
  const error = 'Process exited with code 1\nTraceback (most recent call last):\n  File "/apps/crash_rt/main.py", line 9, in <module>\n    main()\nRuntimeError: crash_rt boom on purpose';
  t.equal(crashReason(error), 'RuntimeError: crash_rt boom on purpose');
  t.equal(crashReason('Process exited with code 3\nline 10\nline 11'), 'line 11');
  t.equal(crashReason('Process exited with code -9'), 'Process exited with code -9');
  t.equal(crashReason(null), 'no error message');
  t.same(logTail(error, 2), ['    main()', 'RuntimeError: crash_rt boom on purpose']);
});
