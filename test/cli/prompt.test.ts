import t from 'tap';
import { PassThrough } from 'node:stream';
import { readLine } from '../../cli/prompt.js';
import { formatTable } from '../../cli/views/table.js';

// Answers read from a pipe: several in one chunk are all kept, in order,
// and the end of input reads as null. The one table formatter's two layouts.

t.test('readLine keeps every piped line, even when they arrive in one chunk', async (t) => {
  const input = new PassThrough();
  input.end('yes\r\nsecond answer\nlast without newline');
  t.equal(await readLine(input), 'yes');
  t.equal(await readLine(input), 'second answer');
  t.equal(await readLine(input), 'last without newline');
  t.equal(await readLine(input), null);
});

t.test('readLine waits for a line that has not arrived yet', async (t) => {
  const input = new PassThrough();
  const answer = readLine(input);
  input.write('la');
  input.write('ter\n');
  t.equal(await answer, 'later');
  input.end();
  t.equal(await readLine(input), null);
});

t.test('formatTable: robotctl layout (two spaces, trimmed) and hf layout (rule, one space, padded)', async (t) => {
  const rows = [['desk', '\x1b[32myes\x1b[0m', ''], ['lab-1', 'no', 'unreachable']];
  t.equal(formatTable(['NAME', 'OK', 'WHY'], rows).text, 'NAME   OK   WHY\ndesk   \x1b[32myes\x1b[0m\nlab-1  no   unreachable');
  const hf = formatTable(['ID', 'URL'], [['abc', 'https://x']], { gap: ' ', rule: true, padLast: true });
  t.equal(hf.text, 'ID  URL       \n--- --------- \nabc https://x ');
  t.equal(hf.cut, false);
  const cut = formatTable(['ID', 'URL'], [['0123456789', 'https://example.org/long/path']], { gap: ' ', padLast: true, maxWidth: 24, keep: [0] });
  t.equal(cut.cut, true);
  t.equal(cut.text.split('\n')[1], '0123456789 https://e... ', 'the kept column is whole, the other cut with ...');
});
