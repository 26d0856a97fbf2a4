import t from 'tap';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { cp } from 'node:fs/promises';
import { createServer } from 'node:net';
import { basename, join, relative } from 'node:path';
import { CopyTreeError, copyTree } from '../../lib/copy-tree.js';

// The daemon's tree copy (apps venv from its template, pip's shared install
// into a venv or an app's version folder) gives what fs.promises.cp gave:
// checked against cp itself on a tree with every kind of entry it meets.

function tree(dir: string): void {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'lib', 'pkg', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'empty'));
  writeFileSync(join(dir, 'bin', 'tool'), '#!/bin/sh\necho hi\n');
  chmodSync(join(dir, 'bin', 'tool'), 0o755);
  writeFileSync(join(dir, 'lib', 'pkg', '__init__.py'), 'x = 1\n');
  writeFileSync(join(dir, 'lib', 'pkg', 'sub', 'data.bin'), Buffer.from([0, 1, 2, 255]));
  writeFileSync(join(dir, 'lib', 'private'), 'secret-ish\n', { mode: 0o600 });
  mkdirSync(join(dir, 'locked'));
  writeFileSync(join(dir, 'locked', 'inside'), 'in\n');
  chmodSync(join(dir, 'locked'), 0o555);
  symlinkSync('python3.11', join(dir, 'bin', 'python'));
  symlinkSync('/usr/bin/python3', join(dir, 'bin', 'python3.11'));
  symlinkSync('../nowhere', join(dir, 'dangling'));
}

/** Every entry: relative path → kind, mode, link target or content. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const s = lstatSync(p);
      const mode = (s.mode & 0o7777).toString(8);
      const key = relative(root, p);
      if (s.isSymbolicLink()) out[key] = `link ${readlinkSync(p)}`;
      else if (s.isDirectory()) { out[key] = `dir ${mode}`; walk(p); }
      else out[key] = `file ${mode} ${readFileSync(p).toString('hex')}`;
    }
  };
  walk(root);
  return out;
}

t.test('a new copy is what fs.promises.cp with verbatim links makes', async (t) => {
  const dir = t.testdir();
  tree(join(dir, 'src'));
  await cp(join(dir, 'src'), join(dir, 'by-cp'), { recursive: true, verbatimSymlinks: true });
  await copyTree(join(dir, 'src'), join(dir, 'deep', 'by-us'));
  const expected = snapshot(join(dir, 'by-cp'));
  t.ok(Object.keys(expected).length >= 12, 'the tree has every kind of entry');
  t.same(snapshot(join(dir, 'deep', 'by-us')), expected);
  t.equal((statSync(join(dir, 'deep', 'by-us')).mode & 0o777).toString(8), (statSync(join(dir, 'src')).mode & 0o777).toString(8), 'the top folder takes the source mode');
  for (const d of ['by-cp', 'deep/by-us', 'src']) chmodSync(join(dir, d, 'locked'), 0o755);
});

t.test('a Python source keeps its time, so the .pyc beside it stays valid in the copy', async (t) => {
  const dir = t.testdir({ src: { pkg: { 'mod.py': 'X = 1\n' } } });
  const old = new Date('2020-01-02T03:04:05Z');
  utimesSync(join(dir, 'src', 'pkg', 'mod.py'), old, old);
  // Python's own .pyc: its header (bytes 8-11) records the source's modification time.
  const compiled = spawnSync('python3', ['-c', 'import py_compile, sys; print(py_compile.compile(sys.argv[1]))', join(dir, 'src', 'pkg', 'mod.py')], { encoding: 'utf8' });
  t.equal(compiled.status, 0, compiled.stderr);
  await copyTree(join(dir, 'src'), join(dir, 'copy'));
  const pyc = join(dir, 'copy', 'pkg', '__pycache__', basename(compiled.stdout.trim()));
  const recorded = readFileSync(pyc).readUInt32LE(8);
  t.equal(recorded, Math.floor(statSync(join(dir, 'copy', 'pkg', 'mod.py')).mtimeMs / 1000), 'the copy\'s source has the time its .pyc records');
  t.equal(recorded, Math.floor(old.getTime() / 1000));
});

t.test('without overwrite, a file already at the destination is an error and is left as it was', async (t) => {
  const dir = t.testdir({ src: { a: 'new\n' }, dst: { a: 'old\n' } });
  await t.rejects(copyTree(join(dir, 'src'), join(dir, 'dst')), { code: 'EEXIST' });
  t.equal(readFileSync(join(dir, 'dst', 'a'), 'utf8'), 'old\n');
});

t.test('with overwrite, files and links are replaced, folders merge and keep their mode, a link is never written through', async (t) => {
  const dir = t.testdir({ src: { pkg: { a: 'new\n', b: 'b\n' } }, dst: { pkg: { a: 'old\n', keep: 'kept\n' } }, outside: 'untouched\n' });
  chmodSync(join(dir, 'dst', 'pkg'), 0o750);
  symlinkSync('a', join(dir, 'src', 'pkg', 'link'));
  symlinkSync(join(dir, 'outside'), join(dir, 'dst', 'pkg', 'b'));
  await copyTree(join(dir, 'src'), join(dir, 'dst'), { overwrite: true });
  t.equal(readFileSync(join(dir, 'dst', 'pkg', 'a'), 'utf8'), 'new\n');
  t.equal(readFileSync(join(dir, 'dst', 'pkg', 'keep'), 'utf8'), 'kept\n', 'what only the destination has stays');
  t.notOk(lstatSync(join(dir, 'dst', 'pkg', 'b')).isSymbolicLink(), 'the link in the way was replaced by the file');
  t.equal(readFileSync(join(dir, 'outside'), 'utf8'), 'untouched\n', 'not written through the old link');
  t.equal(readlinkSync(join(dir, 'dst', 'pkg', 'link')), 'a');
  t.equal((statSync(join(dir, 'dst', 'pkg')).mode & 0o777).toString(8), '750', 'an existing folder keeps its mode');
});

t.test('a source that is not a folder, or holds a socket, is a clear error', async (t) => {
  const dir = t.testdir({ file: 'x' });
  await t.rejects(copyTree(join(dir, 'file'), join(dir, 'out')), new CopyTreeError(`cannot copy ${join(dir, 'file')}: not a folder`));
  t.notOk(existsSync(join(dir, 'out')));
  // A socket's path must be short (108 bytes): a folder of its own in the temp folder.
  const short = mkdtempSync(join(tmpdir(), 'ct-'));
  mkdirSync(join(short, 'src'));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(join(short, 'src', 'sock'), resolve));
  t.teardown(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(short, { recursive: true, force: true });
  });
  await t.rejects(copyTree(join(short, 'src'), join(short, 'out')), /sock: not a file, folder or symbolic link/);
});
