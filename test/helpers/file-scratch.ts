import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A file-level folder for servers that live as long as the test file. tap
// removes a top-level t.testdir() when the root test ends, which can be
// before the file's own teardown has stopped a daemon still writing there
// (ENOTEMPTY, and a file that never exits). Here the folder goes only when
// the caller says: after its servers are closed.

export interface Scratch {
  dir: string;
  remove(): void;
}

export function fileScratch(prefix: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), `robotctl-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
