import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { listAppFiles } from '../../cli/app/files.js';

function tree(root: string, files: string[]): void {
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), f);
  }
}

t.test('build output, caches and local venvs never go up', async (t) => {
  const root = t.testdir();
  tree(root, [
    'README.md', 'app/main.py', 'app/__pycache__/main.cpython-311.pyc', 'app/x.pyc',
    'app.egg-info/PKG-INFO', 'build/lib/app/main.py', 'dist/app.whl', '.venv/bin/python', '.git/HEAD',
  ]);
  t.same(listAppFiles(root), ['README.md', 'app/main.py']);
});

t.test('.gitignore patterns: globs, classes, anchored, directories, negation', async (t) => {
  const root = t.testdir();
  tree(root, [
    '.gitignore', 'keep.txt', 'a.log', 'sub/b.log', 'important.log', 'x.pyo', 'x.py',
    'secrets/token.txt', 'top.tmp', 'sub/top.tmp', 'data/big/file.bin', 'data/small.txt',
  ]);
  writeFileSync(join(root, '.gitignore'), [
    '# comment', '', '*.log', '!important.log', '*.py[co]', 'secrets/', '/top.tmp', 'data/**/*.bin',
  ].join('\n'));
  t.same(listAppFiles(root), ['.gitignore', 'data/small.txt', 'important.log', 'keep.txt', 'sub/top.tmp', 'x.py']);
});
