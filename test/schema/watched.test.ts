import t from 'tap';
import { loadConfigText } from '../../schema/load.js';
import { watchedItem } from '../../schema/build-config.js';
import { shortWatchedProblem } from '../../schema/rules.js';
import { formatDiagnostic } from '../../schema/types.js';
import { WATCHED_TYPES } from '../../lib/wire/hub.js';

t.test('short form type:name splits at the first colon', async (t) => {
  t.strictSame(watchedItem('space:alice/hello_app'), { type: 'space', name: 'alice/hello_app' });
  t.strictSame(watchedItem('user:alice'), { type: 'user', name: 'alice' });
  t.strictSame(watchedItem('model:org/name:with-colon'), { type: 'model', name: 'org/name:with-colon' });
});

t.test('long form is kept as is', async (t) => {
  t.strictSame(watchedItem({ type: 'dataset', name: 'org/data' }), { type: 'dataset', name: 'org/data' });
});

t.test('every watched type is accepted in the short form', async (t) => {
  for (const type of WATCHED_TYPES) t.equal(shortWatchedProblem(`${type}:x`), undefined, type);
});

t.test('short form mistakes', async (t) => {
  t.equal(shortWatchedProblem('spaces:a/b'), "unknown watched type 'spaces', did you mean 'space'?");
  t.equal(shortWatchedProblem('alice'), "'alice' must be type:name, e.g. space:alice/hello_app or user:alice");
  t.equal(shortWatchedProblem('org:'), "'org:' has no name after 'org:'");
});

t.test('loaded config always holds the long form, mixed forms in one list', async (t) => {
  const text = 'version: 1\nwebhooks:\n  w:\n    url: https://example.org/hook\n    watched:\n      - space:demo/hello_app\n      - { type: user, name: demo }\n      - type: org\n        name: pollen\n';
  const r = loadConfigText(text, 'robot.yaml', '/tmp', {});
  if (!r.ok) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  t.strictSame(r.config.webhooks.w?.watched, [
    { type: 'space', name: 'demo/hello_app' },
    { type: 'user', name: 'demo' },
    { type: 'org', name: 'pollen' },
  ]);
});
