import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newState, readState } from '../../state/file.js';
import { localStore } from '../../state/local-store.js';
import { DIRECT_LIMIT, localJournal } from '../../state/local-journal.js';
import { journalPath } from '../../state/journal-file.js';
import { applyChange, type StateChange } from '../../state/journal.js';
import type { StateFile } from '../../state/types.js';

// The local state's journal: an apply past DIRECT_LIMIT records appends one
// line per action and folds at close; a journal a killed apply left is read
// back (in memory without the lock, into the file under it); a torn last
// line is ignored; a journal of another lineage, or continuing a newer
// state, is refused with what to do.

const hook = (i: number): StateChange => ({ webhook: `hook-${i}`, record: { id: `id-${i}`, specHash: `h${i}` } });

async function stateWith(path: string, n: number): Promise<StateFile> {
  let s = newState();
  for (let i = 0; i < n; i++) s = applyChange(s, hook(i));
  s = { ...s, serial: 7 };
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, `${JSON.stringify(s, null, 2)}\n`);
  return s;
}

const lines = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
const header = (s: StateFile, serial = s.serial): string => `${JSON.stringify({ journal: 1, lineage: s.lineage, serial })}\n`;

t.test('small states are rewritten per action; past DIRECT_LIMIT one line per action, folded at close', async (t) => {
  const path = join(t.testdir(), '.robotctl', 'state.json');
  const j = localJournal(path, newState());
  let s = newState();
  const n = DIRECT_LIMIT + 20;
  for (let i = 0; i < n; i++) {
    s = applyChange(s, hook(i));
    await j.record(hook(i), s);
    if (i === DIRECT_LIMIT - 1) {
      t.equal(Object.keys((await readState(path)).webhooks).length, DIRECT_LIMIT, 'every record so far is in state.json');
      t.notOk(existsSync(journalPath(path)), 'no journal for a small state');
    }
  }
  const journal = lines(journalPath(path));
  t.equal(journal.length, 1 + 20, 'a header and one line per action past the limit');
  t.same(JSON.parse(journal[1] as string), hook(DIRECT_LIMIT), 'a line is the change, nothing else');
  t.equal(Object.keys((await readState(path)).webhooks).length, DIRECT_LIMIT, 'state.json not rewritten per action any more');
  const stored = await j.close();
  t.notOk(existsSync(journalPath(path)), 'the journal is gone after close');
  t.same(await readState(path), stored);
  t.equal(Object.keys(stored.webhooks).length, n);
  t.equal(stored.serial, DIRECT_LIMIT + 1, 'one serial per direct write, one for the fold');
});

t.test('a journal a killed apply left: replayed in memory without the lock, folded into the file under it', async (t) => {
  const path = join(t.testdir(), 'state.json');
  const base = await stateWith(path, 3);
  await writeFile(journalPath(path), header(base) + [hook(3), hook(4), { webhook: 'hook-0', record: null }].map((c) => `${JSON.stringify(c)}\n`).join(''));
  const store = localStore(path);
  const seen = await store.read();
  t.same(Object.keys(seen?.webhooks ?? {}).sort(), ['hook-1', 'hook-2', 'hook-3', 'hook-4'], 'plan and diff see what the killed apply did');
  t.equal(seen?.serial, 7);
  t.ok(existsSync(journalPath(path)), 'a read without the lock changes nothing on disk');
  const lock = await store.lock({ timeoutMs: 0 });
  try {
    const folded = await store.read();
    t.equal(folded?.serial, 8);
    t.same(folded?.webhooks, seen?.webhooks);
    t.notOk(existsSync(journalPath(path)), 'folded and removed');
    t.same(await readState(path), folded);
  } finally {
    await lock.release();
  }
});

t.test('a torn last line is ignored; a journal already folded (older serial) is dropped', async (t) => {
  const path = join(t.testdir(), 'state.json');
  const base = await stateWith(path, 1);
  await writeFile(journalPath(path), header(base) + `${JSON.stringify(hook(1))}\n` + JSON.stringify(hook(2)).slice(0, 20));
  const store = localStore(path);
  t.same(Object.keys((await store.read())?.webhooks ?? {}).sort(), ['hook-0', 'hook-1']);
  await writeFile(journalPath(path), header(base, 6) + `${JSON.stringify(hook(5))}\n`);
  t.same(Object.keys((await store.read())?.webhooks ?? {}), ['hook-0'], 'a journal of serial 6 is already in a state of serial 7');
  const lock = await store.lock({ timeoutMs: 0 });
  try {
    t.equal((await store.read())?.serial, 7, 'nothing to fold: the file is left as it is');
    t.notOk(existsSync(journalPath(path)));
  } finally {
    await lock.release();
  }
});

t.test('a journal of another lineage, of a newer state, or damaged is refused with what to do', async (t) => {
  const path = join(t.testdir(), 'state.json');
  const base = await stateWith(path, 1);
  const store = localStore(path);
  const stranger = newState();
  await writeFile(journalPath(path), header(stranger, 7) + `${JSON.stringify(hook(1))}\n`);
  await t.rejects(store.read(), {
    message: `the state journal ${journalPath(path)} belongs to another lineage (${stranger.lineage}, not ${base.lineage} of ${path}); ` +
      'refusing to fold it in: put back the state file it was written for, or move the journal away (robotctl would then re-adopt identical webhooks)',
  });
  await writeFile(journalPath(path), header(base, 9));
  await t.rejects(store.read(), /continues serial 9 of the state, but .*state\.json is at serial 7; refusing to fold it in/);
  await writeFile(journalPath(path), `${header(base)}{"webhook":\n${JSON.stringify(hook(2))}\n`);
  await t.rejects(store.read(), /state journal .* is damaged at line 2 \(.*\); move it away to go on/);
  await writeFile(journalPath(path), `${header(base)}${JSON.stringify({ webhook: 'x', record: { id: 1 } })}\n`);
  await t.rejects(store.read(), /damaged at line 2 \(not a webhook or app record\)/);
});

t.test('a journal with no state file: folded into a new one of its lineage; a later serial is refused', async (t) => {
  const path = join(t.testdir(), 'state.json');
  const born = newState();
  await writeFile(journalPath(path), header(born) + `${JSON.stringify(hook(0))}\n`);
  const store = localStore(path);
  const lock = await store.lock({ timeoutMs: 0 });
  try {
    const folded = await store.read();
    t.equal(folded?.lineage, born.lineage);
    t.equal(folded?.serial, 1);
    t.same(Object.keys(folded?.webhooks ?? {}), ['hook-0']);
  } finally {
    await lock.release();
  }
  const other = join(t.testdir(), 'state.json');
  await writeFile(journalPath(other), header(born, 4));
  await t.rejects(localStore(other).read(), /continues serial 4 of the state, but .* is missing/);
});

t.test('app records replay too, and a removal of the last app keeps the robot', async (t) => {
  const path = join(t.testdir(), 'state.json');
  const base = await stateWith(path, 0);
  const rec = { source: 'https://huggingface.co/spaces/a/b', path: null, sha: 'abc' };
  await appendFile(journalPath(path), header(base) + [
    { robot: 'desk', app: 'b', record: rec }, { robot: 'desk', app: 'c', record: { ...rec, sha: null } }, { robot: 'desk', app: 'b', record: null },
  ].map((c) => `${JSON.stringify(c)}\n`).join(''));
  t.same((await localStore(path).read())?.robots, { desk: { apps: { c: { ...rec, sha: null } } } });
});

t.test('records made at once are written together, each resolved only once its line is on disk', async (t) => {
  const path = join(t.testdir(), 'state.json');
  const j = localJournal(path, newState());
  // Small state: concurrent records share state.json rewrites.
  let s = newState();
  const direct = Array.from({ length: 10 }, (_, i) => {
    s = applyChange(s, hook(i));
    return j.record(hook(i), s);
  });
  await Promise.all(direct);
  const written = await readState(path);
  t.equal(Object.keys(written.webhooks).length, 10, 'all ten in state.json');
  t.ok(written.serial < 10, `written together (${written.serial} rewrites for 10 records)`);
  // Past DIRECT_LIMIT: lines in the journal, each present when its record resolves.
  for (let i = 10; i < DIRECT_LIMIT; i++) {
    s = applyChange(s, hook(i));
    await j.record(hook(i), s);
  }
  const many = Array.from({ length: 20 }, (_, k) => {
    const i = DIRECT_LIMIT + k;
    s = applyChange(s, hook(i));
    return j.record(hook(i), s).then(() => {
      t.ok(readFileSync(journalPath(path), 'utf8').includes(`${JSON.stringify(hook(i))}\n`), `hook-${i} is in the journal when its record resolves`);
    });
  });
  await Promise.all(many);
  t.equal(lines(journalPath(path)).length, 1 + 20, 'a header and one line per record');
  const stored = await j.close();
  t.equal(Object.keys(stored.webhooks).length, DIRECT_LIMIT + 20);
  t.same(await readState(path), stored);
});
