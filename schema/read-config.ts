import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { firstBadByte } from './utf8.js';
import { wideEncoding, wideMessage } from './wide-encoding.js';
import type { Located } from './yaml-doc.js';

// Reading robot.yaml: bounded in size (a config is kilobytes; the limit keeps a
// wrong file, a log or a dump, from taking the machine's memory) and refused
// unless it is UTF-8: UTF-16 and UTF-32 are named, else the position of the
// first bad byte is given.

/** 16 MiB: about 100,000 webhooks, far above any real robot.yaml. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

export type ReadResult = { ok: true; text: string } | { ok: false; problem: Located };

const MIB = 1024 * 1024;

/** Read `abs`; errors from the file system are thrown for the caller to word. */
export function readConfigFile(abs: string, limit = MAX_CONFIG_BYTES): ReadResult {
  const fd = openSync(abs, 'r');
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > limit) return { ok: false, problem: tooLarge(stat.size, limit) };
    // A pipe, or a file that grows while read: read at most one byte past the limit.
    const buf = Buffer.allocUnsafe((stat.isFile() ? stat.size : limit) + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buf.length; length += n) n = readSync(fd, buf, length, buf.length - length, null);
    if (length > limit) return { ok: false, problem: tooLarge(length, limit) };
    return decode(buf.subarray(0, length));
  } finally {
    closeSync(fd);
  }
}

/** Check text given in memory against the same limit. */
export function checkText(text: string, limit = MAX_CONFIG_BYTES): ReadResult {
  const size = Buffer.byteLength(text, 'utf8');
  return size > limit ? { ok: false, problem: tooLarge(size, limit) } : { ok: true, text };
}

export function decode(buf: Uint8Array): ReadResult {
  const wide = wideEncoding(buf);
  if (wide) return { ok: false, problem: { line: 1, column: 1, path: '', message: wideMessage(wide) } };
  const bad = firstBadByte(buf);
  if (bad) {
    const hex = bad.byte.toString(16).toUpperCase().padStart(2, '0');
    const message = `invalid UTF-8 (byte 0x${hex} at offset ${bad.offset}): save the file as UTF-8`;
    return { ok: false, problem: { line: bad.line, column: bad.column, path: '', message } };
  }
  return { ok: true, text: Buffer.from(buf.buffer, buf.byteOffset, buf.length).toString('utf8') };
}

function tooLarge(size: number, limit: number): Located {
  const shown = size > limit + 1 ? `${(size / MIB).toFixed(1)} MiB` : 'larger than the limit';
  return { line: 1, column: 1, path: '', message: `the file is too large (${shown}): a robot.yaml may be at most ${limit / MIB} MiB` };
}
