import t from 'tap';
import { defaultGitattributes, parseLfsRules, tracksWithLfs } from '../../runtime/hub/lfs/attributes.js';
import { formatPointer, parsePointer } from '../../runtime/hub/lfs/pointer.js';
import { parseRange } from '../../runtime/hub/routes/byte-range.js';

// The pure pieces of the hub's LFS: .gitattributes patterns as git reads
// them, pointer files as git-lfs writes them, and download ranges.

t.test('.gitattributes: git\'s pattern rules for filter=lfs', async (t) => {
  const model = parseLfsRules(defaultGitattributes('model'));
  for (const p of ['a.bin', 'deep/dir/w.safetensors', 'x.tar.gz', 'events.out.tfevents.123', 'saved_model/a/b/c.pb', 'saved_model/v.data', 'm.lfs.txt']) {
    t.ok(tracksWithLfs(model, p), `${p} goes through LFS`);
  }
  for (const p of ['README.md', 'a.txt', 'bin', 'x.png', 'notsaved_model/a']) t.notOk(tracksWithLfs(model, p), `${p} stays regular`);
  t.ok(tracksWithLfs(parseLfsRules(defaultGitattributes('dataset')), 'img/a.png'), 'datasets track images too');

  const rules = parseLfsRules([
    '# comment', '', '/root.dat filter=lfs', 'data/*.csv filter=lfs', '**/logs/** filter=lfs', 'dir/ filter=lfs',
    '*.bin filter=lfs', 'keep.bin -filter', 'other.bin filter=crypt', 'f[0-9].x filter=lfs', 'q?.y filter=lfs',
  ].join('\n'));
  const cases: [string, boolean][] = [
    ['root.dat', true], ['sub/root.dat', false], ['data/a.csv', true], ['data/sub/a.csv', false], ['x/data/a.csv', false],
    ['logs/a', true], ['a/logs/b/c', true], ['dir/a', false], ['a.bin', true], ['keep.bin', false], ['other.bin', false],
    ['f1.x', true], ['fa.x', false], ['q1.y', true], ['q/.y', false],
  ];
  for (const [p, want] of cases) t.equal(tracksWithLfs(rules, p), want, `${p}: ${want ? 'lfs' : 'regular'}`);
});

t.test('pointers: what git-lfs writes, and nothing else', async (t) => {
  const p = { oid: 'a'.repeat(64), size: 20971520 };
  t.same(parsePointer(formatPointer(p)), p);
  t.equal(formatPointer(p).toString(), `version https://git-lfs.github.com/spec/v1\noid sha256:${'a'.repeat(64)}\nsize 20971520\n`);
  t.equal(parsePointer(Buffer.from('version https://git-lfs.github.com/spec/v1\noid sha256:XYZ\nsize 1\n'.padEnd(130, ' '))), null, 'a bad oid');
  t.equal(parsePointer(Buffer.from('hello world'.repeat(20))), null, 'ordinary content');
  t.equal(parsePointer(Buffer.alloc(2000, 0x61)), null, 'too large to be a pointer');
});

t.test('byte ranges of a resumed download', async (t) => {
  t.same(parseRange('bytes=0-9', 100), { start: 0, end: 9 });
  t.same(parseRange('bytes=90-', 100), { start: 90, end: 99 });
  t.same(parseRange('bytes=-10', 100), { start: 90, end: 99 });
  t.same(parseRange('bytes=50-500', 100), { start: 50, end: 99 }, 'an end past the size stops at the last byte');
  t.equal(parseRange('bytes=100-', 100), 'unsatisfiable');
  t.equal(parseRange(undefined, 100), null);
  t.equal(parseRange('bytes=0-1,5-6', 100), null, 'several ranges: the whole content');
});
