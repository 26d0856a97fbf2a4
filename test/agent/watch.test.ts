import t from 'tap';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWatchers } from '../../reconciler/agent/watch.js';
import { eventLog } from '../helpers/wait.js';

// A burst of saves is one event; a save by rename (editors) is seen; build
// output in an app folder is not a change of the app.
//
// No sleeps: each step awaits the event it expects. A change that must NOT
// give an event is followed by one that gives an event under another key
// (file vs app, debounced separately); the next event must be that one, so a
// wrong event would show up first.

t.test('file and app folder changes, debounced', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\n', 'other.yaml': 'x', dev: { 'main.py': 'print(1)\n' } });
  const file = join(dir, 'robot.yaml');
  const events = eventLog<string>();
  const w = await startWatchers(file, 100, { file: () => events.push('file'), app: (name) => events.push(`app:${name}`) });
  t.teardown(() => w.close());
  await w.setApps({ dev: join(dir, 'dev') });

  for (let i = 0; i < 5; i++) writeFileSync(file, `version: 1\n# ${i}\n`);
  t.equal(await events.next(), 'file', 'five quick saves give an event');

  writeFileSync(join(dir, 'other.yaml'), 'y');
  writeFileSync(join(dir, 'dev', 'main.py'), 'print(2)\n');
  t.equal(await events.next(), 'app:dev', 'one event for the five saves; another file of the folder is not robot.yaml');

  writeFileSync(join(dir, 'robot.yaml.tmp'), 'version: 1\n# renamed\n');
  renameSync(join(dir, 'robot.yaml.tmp'), file);
  t.equal(await events.next(), 'file', 'a save by rename is seen');

  mkdirSync(join(dir, 'dev', '__pycache__'));
  writeFileSync(join(dir, 'dev', '__pycache__', 'main.cpython-311.pyc'), 'x');
  writeFileSync(file, 'version: 1\n# after bytecode\n');
  t.equal(await events.next(), 'file', 'bytecode is not a change of the app');

  writeFileSync(join(dir, 'dev', 'main.py'), 'print(3)\n');
  writeFileSync(join(dir, 'dev', 'extra.py'), 'x = 1\n');
  t.equal(await events.next(), 'app:dev', 'app folder change');
  writeFileSync(file, 'version: 1\n# after the app\n');
  t.equal(await events.next(), 'file', 'two app files changed at once, one event');

  await w.setApps({});
  writeFileSync(join(dir, 'dev', 'main.py'), 'print(4)\n');
  writeFileSync(file, 'version: 1\n# last\n');
  t.equal(await events.next(), 'file', 'an app folder no longer watched gives no event');
  t.same(events.seen, ['file', 'app:dev', 'file', 'file', 'app:dev', 'file', 'file']);
});
