import t from 'tap';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startWatchers } from '../../reconciler/agent/watch.js';

// A burst of saves is one event; a save by rename (editors) is seen; build
// output in an app folder is not a change of the app.

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

t.test('file and app folder changes, debounced', async (t) => {
  const dir = t.testdir({ 'robot.yaml': 'version: 1\n', 'other.yaml': 'x', dev: { 'main.py': 'print(1)\n' } });
  const file = join(dir, 'robot.yaml');
  const events: string[] = [];
  const w = await startWatchers(file, 100, { file: () => events.push('file'), app: (name) => events.push(`app:${name}`) });
  t.teardown(() => w.close());
  await w.setApps({ dev: join(dir, 'dev') });

  for (let i = 0; i < 5; i++) {
    writeFileSync(file, `version: 1\n# ${i}\n`);
    await sleep(10);
  }
  await sleep(400);
  t.same(events, ['file'], 'five quick saves, one event');

  writeFileSync(join(dir, 'other.yaml'), 'y');
  await sleep(300);
  t.same(events, ['file'], 'another file of the folder is not robot.yaml');

  writeFileSync(join(dir, 'robot.yaml.tmp'), 'version: 1\n# renamed\n');
  renameSync(join(dir, 'robot.yaml.tmp'), file);
  await sleep(400);
  t.same(events, ['file', 'file'], 'a save by rename is seen');

  mkdirSync(join(dir, 'dev', '__pycache__'));
  writeFileSync(join(dir, 'dev', '__pycache__', 'main.cpython-311.pyc'), 'x');
  await sleep(300);
  t.same(events, ['file', 'file'], 'bytecode is not a change of the app');

  writeFileSync(join(dir, 'dev', 'main.py'), 'print(2)\n');
  writeFileSync(join(dir, 'dev', 'extra.py'), 'x = 1\n');
  await sleep(400);
  t.same(events, ['file', 'file', 'app:dev'], 'app folder change, one event');

  await w.setApps({});
  writeFileSync(join(dir, 'dev', 'main.py'), 'print(3)\n');
  await sleep(300);
  t.same(events, ['file', 'file', 'app:dev'], 'no longer watched');
});
