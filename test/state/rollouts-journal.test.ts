import t from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newState, readState } from '../../state/file.js';
import { localStore } from '../../state/local-store.js';
import { journalPath } from '../../state/journal-file.js';
import type { RolloutLog } from '../../state/rollouts.js';

// The rollouts' block (state/rollouts.ts) is one record of the journal: a
// journal a killed apply left replays it with the rest, and a line that is
// not a rollouts block the state's schema accepts is refused as damage.

const log: RolloutLog = {
  history: [{ id: 'r-1', trigger: 'delivery', startedAt: '2026-11-27T10:15:00.000Z', finishedAt: '2026-11-27T10:15:06.200Z', durationMs: 6200,
    revisions: [{ robot: 'desk', app: 'hello_app', from: 'a'.repeat(40), to: 'b'.repeat(40) }], waves: [['desk']], outcome: 'rolled_back',
    robots: [{ name: 'desk', wave: 1, outcome: 'rolled_back', reason: 'RuntimeError: boom' }] }],
  held: { hello_app: { sha: 'b'.repeat(40), reason: 'desk: RuntimeError: boom', rollout: 'r-1', at: '2026-11-27T10:15:06.200Z' } },
};

async function withJournal(dir: string, lines: unknown[]): Promise<string> {
  const path = join(dir, 'state.json');
  const base = { ...newState(), serial: 3 };
  await mkdir(dir, { recursive: true });
  await writeFile(path, `${JSON.stringify(base)}\n`);
  await writeFile(journalPath(path), `${JSON.stringify({ journal: 1, lineage: base.lineage, serial: 3 })}\n${lines.map((l) => `${JSON.stringify(l)}\n`).join('')}`);
  return path;
}

t.test('a rollouts record in the journal is replayed and folded like any other', async (t) => {
  const path = await withJournal(t.testdir(), [{ robot: 'desk', app: 'hello_app', record: { source: 'https://huggingface.co/spaces/alice/hello_app', path: null, sha: 'a'.repeat(40) } }, { rollouts: log }]);
  const store = localStore(path);
  t.same((await store.read())?.rollouts, log, 'replayed in memory');
  const lock = await store.lock({ timeoutMs: 1000 });
  const folded = await store.read();
  await lock.release();
  t.same(folded?.rollouts, log);
  t.same((await readState(path)).rollouts, log, 'folded into state.json');
});

t.test('a rollouts line the schema refuses is damage, named with its line', async (t) => {
  const path = await withJournal(t.testdir(), [{ rollouts: { history: [{ id: 'r-1' }], held: {} } }]);
  await t.rejects(localStore(path).read(), /the state journal .* is damaged at line 2 \(not a rollouts record\)/);
});
