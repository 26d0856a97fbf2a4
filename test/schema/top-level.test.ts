import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readHubEndpoint, readStateBlock, readTopLevel } from '../../schema/top-level.js';
import { resolveBackend } from '../../state/spec.js';
import { loadConfig } from '../../schema/load.js';

// A top-level block of robot.yaml read from its own lines: the same value as
// the full YAML parser gives, on plain files and on the ones it hands over.

const files: Record<string, string> = {
  plain: 'version: 1\n# the state\nstate:\n  backend: hub   # shared\n  repo: alice/state\n# between\nhub: { endpoint: "http://127.0.0.1:1" }\nwebhooks:\n  a:\n    url: https://example.org/a\n',
  flowState: 'version: 1\nstate: { backend: postgres, url: "${DB}", key: lab }\n',
  lastKey: 'version: 1\nwebhooks: {}\nstate:\n  backend: local\n  path: ./s.json\n',
  absent: 'version: 1\nwebhooks: {}\n',
  topFlow: '{ version: 1, state: { backend: hub, repo: a/b } }\n',
  anchors: 'version: 1\nbase: &b { backend: hub, repo: a/b }\nstate: *b\n',
  documentStart: '---\nversion: 1\nstate: { backend: local }\n',
  quotedKey: 'version: 1\n"state": { backend: hub, repo: q/r }\n',
  blockScalarInside: 'version: 1\nnotes: |\n  state: not this one\nstate:\n  backend: hub\n  repo: x/y\n',
};

for (const [name, text] of Object.entries(files)) {
  t.test(`${name}: as the full parser reads it`, async (t) => {
    const file = join(t.testdir(), 'robot.yaml');
    writeFileSync(file, text);
    const full = parse(text) as Record<string, unknown>;
    t.same(readTopLevel(file, 'state'), full.state);
    t.same(readTopLevel(file, 'hub'), full.hub);
    const endpoint = (full.hub as { endpoint?: unknown } | undefined)?.endpoint;
    t.equal(readHubEndpoint(file), typeof endpoint === 'string' ? endpoint : null);
  });
}

t.test('a state block is read while the rest of the file is broken; a missing file has none', async (t) => {
  const dir = t.testdir();
  const file = join(dir, 'robot.yaml');
  writeFileSync(file, 'version: 1\nstate:\n  backend: hub\n  repo: "${OWNER}/state"\nwebhooks:\n  a: [unclosed\n');
  t.same(readStateBlock(file, { OWNER: 'alice' }), { backend: 'hub', repo: 'alice/state' });
  t.equal(readTopLevel(join(dir, 'nope.yaml'), 'state'), null);
});

t.test('the backend from the state block of a loaded file is the one the block read alone gives', async (t) => {
  const dir = t.testdir();
  const file = join(dir, 'robot.yaml');
  writeFileSync(file, 'version: 1\nstate:\n  backend: hub\n  repo: "${OWNER}/state"\n  lease: 5s\n');
  const env = { OWNER: 'alice' };
  const loaded = loadConfig(file, env);
  if (!loaded.ok) throw new Error('the file loads');
  t.strictSame(loaded.config.stateBlock, { backend: 'hub', repo: 'alice/state', lease: '5s' });
  const fromFile = resolveBackend({ configFile: file, cwd: dir, env, block: () => readStateBlock(file, env) });
  t.strictSame(resolveBackend({ configFile: join(dir, 'gone.yaml'), cwd: dir, env, block: () => loaded.config.stateBlock ?? null }), fromFile, 'the same backend, from a path that does not exist');
  t.strictSame(fromFile, { backend: 'hub', repo: 'alice/state', path: 'state.json', leaseMs: 5000, endpoint: null });
  t.strictSame(resolveBackend({ configFile: file, cwd: dir, env, block: () => null }), { backend: 'local', path: join(dir, '.robotctl', 'state.json') }, 'null: no block, the local default');
});

t.test('the block is asked for only when neither --state nor ROBOTCTL_STATE names the backend', async (t) => {
  const asked: string[] = [];
  const block = (): null => { asked.push('block'); return null; };
  t.strictSame(resolveBackend({ configFile: '/x/robot.yaml', cwd: '/x', env: {}, flag: 'hub:a/b', block }).backend, 'hub');
  t.strictSame(resolveBackend({ configFile: '/x/robot.yaml', cwd: '/x', env: { ROBOTCTL_STATE: 'postgres' }, block }).backend, 'postgres');
  t.same(asked, [], 'not asked');
  resolveBackend({ configFile: '/x/robot.yaml', cwd: '/x', env: {}, block });
  t.same(asked, ['block']);
});
