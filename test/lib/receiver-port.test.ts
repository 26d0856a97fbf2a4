import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/root.js';
import { DEFAULT_RECEIVER_PORT } from '../../lib/receiver-port.js';

// The receiver's default port is one constant (issue 28 point 9): no source
// file but lib/receiver-port.ts writes the number in code (comments may name it).

const SOURCE = ['cli', 'reconciler', 'drivers', 'state', 'schema', 'runtime', 'lib'];

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? walk(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

t.test(`${DEFAULT_RECEIVER_PORT} is written in code once, in lib/receiver-port.ts`, async (t) => {
  const found: string[] = [];
  for (const file of SOURCE.flatMap((d) => walk(join(ROOT, d)))) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const code = line.replace(/\/\*.*?(\*\/|$)/g, '').replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
      if (new RegExp(`\\b${DEFAULT_RECEIVER_PORT}\\b`).test(code)) found.push(`${relative(ROOT, file)}:${i + 1}`);
    });
  }
  t.same(found, ['lib/receiver-port.ts:6'], found.join('\n'));
});
