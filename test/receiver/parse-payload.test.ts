import t from 'tap';
import { parsePayload } from '../../runtime/receiver/index.js';
import { docExampleWithComment, fixture, fixtures } from './fixtures.js';

t.test('the spec fixtures parse', async (t) => {
  for (const [name, text] of Object.entries(fixtures)) {
    const result = parsePayload(JSON.parse(text));
    t.ok(result.ok, name);
  }
  const r = parsePayload(fixture('contentUpdate'));
  if (!r.ok) throw new Error(r.error);
  t.equal(r.payload.repo.headSha, '5e7f29fffcc579cb52539fddb14a1a4f85f39e44', 'headSha kept (camelCase, the Hub field)');
  t.equal(r.payload.updatedRefs?.[0]?.oldSha, null);
  t.equal(r.payload.event.scope, 'repo.content');
});

t.test('the doc example with comments is not JSON (expected)', async (t) => {
  t.throws(() => JSON.parse(docExampleWithComment));
});

t.test('extra fields are accepted, everywhere', async (t) => {
  const body = fixture('prOpened');
  body.updatedConfig = { private: false };
  body.somethingNew = { nested: [1, 2] };
  (body.repo as Record<string, unknown>).extra = 'x';
  const r = parsePayload(body);
  t.ok(r.ok);
});

t.test('rejects what the official receiver rejects, naming the field', async (t) => {
  const cases: [string, (b: Record<string, unknown>) => void, RegExp][] = [
    ['webhook.version 2', (b) => { (b.webhook as Record<string, unknown>).version = 2; }, /webhook\.version must be 3/],
    ['unknown action', (b) => { (b.event as Record<string, unknown>).action = 'rename'; }, /event\.action must be one of create, delete, move, update/],
    ['bucket repo', (b) => { (b.repo as Record<string, unknown>).type = 'bucket'; }, /repo\.type must be one of dataset, model, space/],
    ['missing repo', (b) => { delete b.repo; }, /repo is required/],
    ['missing repo.owner.id', (b) => { (b.repo as { owner: Record<string, unknown> }).owner = {}; }, /repo\.owner\.id is required/],
    ['private not a boolean', (b) => { (b.repo as Record<string, unknown>).private = 'no'; }, /repo\.private must be a boolean/],
    ['num not an integer', (b) => { (b.discussion as Record<string, unknown>).num = 1.5; }, /discussion\.num must be an integer/],
    ['bad discussion status', (b) => { (b.discussion as Record<string, unknown>).status = 'weird'; }, /discussion\.status must be one of/],
  ];
  for (const [name, mutate, message] of cases) {
    const body = fixture('prOpened');
    mutate(body);
    const r = parsePayload(body);
    t.notOk(r.ok, name);
    if (!r.ok) t.match(r.error, message, name);
  }
  for (const body of [null, 42, 'text', [], {}]) {
    const r = parsePayload(body);
    t.notOk(r.ok, JSON.stringify(body));
  }
  const notObject = parsePayload([]);
  if (!notObject.ok) t.match(notObject.error, /body must be an object/);
});
