import { isUtf8 } from 'node:buffer';

// robot.yaml must be UTF-8. Node's decoder silently turns bad bytes into
// U+FFFD, so a broken file would validate; check first (native, fast) and
// find the position only when the check fails.

export interface BadByte {
  offset: number;
  line: number;
  /** In characters, like every other column robotctl reports. */
  column: number;
  byte: number;
}

/** The first byte that is not valid UTF-8, or undefined for a valid buffer. */
export function firstBadByte(buf: Uint8Array): BadByte | undefined {
  if (isUtf8(buf)) return undefined;
  const offset = invalidOffset(buf);
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i < offset; i++) {
    if (buf[i] === 0x0a) {
      line += 1;
      lineStart = i + 1;
    }
  }
  const column = [...Buffer.from(buf.subarray(lineStart, offset)).toString('utf8')].length + 1;
  return { offset, line, column, byte: buf[offset] ?? 0 };
}

// Length of the sequence a lead byte starts, with the range its first
// continuation byte must fall in (no overlongs, no surrogates, ≤ U+10FFFF).
function sequence(lead: number): [number, number, number] | undefined {
  if (lead < 0x80) return [1, 0, 0];
  if (lead >= 0xc2 && lead <= 0xdf) return [2, 0x80, 0xbf];
  if (lead === 0xe0) return [3, 0xa0, 0xbf];
  if (lead === 0xed) return [3, 0x80, 0x9f];
  if (lead >= 0xe1 && lead <= 0xef) return [3, 0x80, 0xbf];
  if (lead === 0xf0) return [4, 0x90, 0xbf];
  if (lead === 0xf4) return [4, 0x80, 0x8f];
  if (lead >= 0xf1 && lead <= 0xf3) return [4, 0x80, 0xbf];
  return undefined;
}

function invalidOffset(buf: Uint8Array): number {
  let i = 0;
  while (i < buf.length) {
    const seq = sequence(buf[i] ?? 0);
    if (!seq) return i;
    const [length, low, high] = seq;
    for (let k = 1; k < length; k++) {
      const b = buf[i + k];
      const [min, max] = k === 1 ? [low, high] : [0x80, 0xbf];
      if (b === undefined || b < min || b > max) return i;
    }
    i += length;
  }
  return buf.length;
}
