import t from 'tap';
import { readFile, readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { newState, readState, writeState } from '../../state/file.js';
import { defaultLocalPath, parseSpec } from '../../state/spec.js';
import { UserError } from '../../lib/errors.js';

// The state file: where it lives, fresh states, atomic writes with mode
// 0600, serial and lineage, and clear refusals for unknown or damaged files.

t.test('the local state sits beside the config unless a path is given', (t) => {
  t.equal(defaultLocalPath('/srv/fleet/robot.yaml'), '/srv/fleet/.robotctl/state.json');
  t.strictSame(parseSpec('/tmp/x/state.json', '/srv', '--state'), { backend: 'local', path: '/tmp/x/state.json' });
  t.strictSame(parseSpec('x/state.json', '/srv', '--state'), { backend: 'local', path: '/srv/x/state.json' });
  t.end();
});

t.test('a missing file is a fresh state with a new lineage', async (t) => {
  const dir = t.testdir();
  const a = await readState(join(dir, 'nope', 'state.json'));
  const b = await readState(join(dir, 'nope', 'state.json'));
  t.match(a, { version: 1, serial: 0, webhooks: {}, robots: {} });
  t.match(a.lineage, /^[0-9a-f-]{36}$/);
  t.not(a.lineage, b.lineage);
});

t.test('writes are atomic, 0600, bump the serial and keep the lineage', async (t) => {
  const sp = join(t.testdir(), '.robotctl', 'state.json');
  const fresh = newState();
  const w1 = await writeState(sp, { ...fresh, webhooks: { a: { id: '1', specHash: 'h' } } });
  t.equal(w1.serial, 1);
  const r1 = await readState(sp);
  t.same(r1, w1);
  const w2 = await writeState(sp, { ...r1, robots: { desk: { apps: { hello: { source: 'https://x', path: null, sha: 'abc' } } } } });
  t.equal(w2.serial, 2);
  t.equal(w2.lineage, fresh.lineage);
  const st = await stat(sp);
  t.equal(st.mode & 0o777, 0o600);
  t.same((await readdir(join(sp, '..'))).sort(), ['state.json'], 'no temp files left');
  t.same(await readState(sp), w2);
});

t.test('a stale in-memory serial still moves forward', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  const s = newState();
  await writeState(sp, s);
  await writeState(sp, { ...s, serial: 1 });
  const third = await writeState(sp, s);
  t.equal(third.serial, 3);
});

t.test('a state of another lineage is not overwritten', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  await writeState(sp, newState());
  await t.rejects(writeState(sp, newState()), /another lineage/);
});

t.test('unknown versions and damaged files are refused with what to do', async (t) => {
  const dir = t.testdir();
  await mkdir(dir, { recursive: true });
  const v2 = join(dir, 'v2.json');
  await writeFile(v2, JSON.stringify({ ...newState(), version: 2 }));
  const err = await readState(v2).catch((e: unknown) => e);
  t.type(err, UserError);
  t.match((err as Error).message, /version 2, but this robotctl reads version 1; upgrade robotctl/);
  const bad = join(dir, 'bad.json');
  await writeFile(bad, '{"version": 1, "lin');
  await t.rejects(readState(bad), /not valid JSON.*move it away/);
  const shape = join(dir, 'shape.json');
  await writeFile(shape, JSON.stringify({ ...newState(), webhooks: { a: { id: 1, specHash: 'x' } } }));
  await t.rejects(readState(shape), /damaged \(webhooks\.a\.id: must be string\)/);
  const noHash = join(dir, 'no-hash.json');
  await writeFile(noHash, JSON.stringify({ ...newState(), webhooks: { a: { id: 'h1' } } }));
  await t.rejects(readState(noHash), /damaged \(webhooks\.a: must have required property 'specHash'\)/);
  const apps = join(dir, 'apps.json');
  await writeFile(apps, JSON.stringify({ ...newState(), robots: { r: { apps: { x: { source: 3 } } } } }));
  await t.rejects(readState(apps), /robots\.r\.apps\.x/);
});

t.test('the written file is plain, indented JSON', async (t) => {
  const sp = join(t.testdir(), 'state.json');
  await writeState(sp, newState());
  const text = await readFile(sp, 'utf8');
  t.match(text, /^\{\n {2}"version": 1,/);
  t.ok(text.endsWith('}\n'));
});
