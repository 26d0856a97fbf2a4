import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
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

// The two cases the hand-written matcher got wrong: a leading `\#` or `\!`
// is a literal character in git, not a comment or a negation. Checked against
// `git check-ignore` when git is there, so the list is git's, not ours.
t.test('escaped \\# and \\! match files named with # and !, as in git', async (t) => {
  const root = t.testdir();
  tree(root, ['.gitignore', '#notes.txt', '!draft.md', 'draft.md', 'keep.py', 'sub/#notes.txt', 'a.log', 'important.log', 'trailing ']);
  writeFileSync(join(root, '.gitignore'), ['\\#notes.txt', '\\!draft.md', '# a comment', '*.log', '!important.log', 'trailing\\ '].join('\n'));
  const expected = ['.gitignore', 'draft.md', 'important.log', 'keep.py'];
  t.same(listAppFiles(root), expected);
  const git = spawnSync('git', ['init', '-q', root]);
  if (git.error || git.status !== 0) return;
  const all = ['#notes.txt', '!draft.md', 'draft.md', 'keep.py', 'sub/#notes.txt', 'a.log', 'important.log', 'trailing '];
  const check = spawnSync('git', ['-C', root, 'check-ignore', '--no-index', ...all], { encoding: 'utf8' });
  const gitIgnored = check.stdout.split('\n').filter(Boolean);
  t.same(['.gitignore', ...all.filter((f) => !gitIgnored.includes(f))].sort(), expected, 'git ignores the same files');
});

t.test('.gitignore cannot bring back what never goes up', async (t) => {
  const root = t.testdir();
  tree(root, ['.gitignore', 'app/main.py', 'build/x.py', 'app/__pycache__/m.pyc']);
  writeFileSync(join(root, '.gitignore'), '!build/\n!*.pyc\n');
  t.same(listAppFiles(root), ['.gitignore', 'app/main.py']);
});
