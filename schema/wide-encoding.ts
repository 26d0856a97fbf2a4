// robot.yaml is read as UTF-8 only. A file saved as UTF-16 or UTF-32 (some
// Windows editors' "Unicode") is named as such, with what to do, instead of
// "invalid UTF-8 byte 0xFF" (with a byte order mark) or a string of NULs
// read as text (without one). Detected as the YAML spec (5.2) does: by the
// byte order mark, else by where the NUL bytes of the first ASCII character fall.

export interface WideEncoding {
  name: 'UTF-16' | 'UTF-32';
  endian: 'little' | 'big';
  bom: boolean;
}

export function wideEncoding(b: Uint8Array): WideEncoding | undefined {
  const [b0, b1, b2, b3] = [b[0], b[1], b[2], b[3]];
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0xfe && b3 === 0xff) return { name: 'UTF-32', endian: 'big', bom: true };
  if (b0 === 0xff && b1 === 0xfe && b2 === 0x00 && b3 === 0x00) return { name: 'UTF-32', endian: 'little', bom: true };
  if (b0 === 0xfe && b1 === 0xff) return { name: 'UTF-16', endian: 'big', bom: true };
  if (b0 === 0xff && b1 === 0xfe) return { name: 'UTF-16', endian: 'little', bom: true };
  if (b.length < 2) return undefined;
  if (b0 === 0x00 && b1 === 0x00 && b2 === 0x00 && b3 !== undefined && b3 !== 0x00) return { name: 'UTF-32', endian: 'big', bom: false };
  if (b0 !== 0x00 && b1 === 0x00 && b2 === 0x00 && b3 === 0x00) return { name: 'UTF-32', endian: 'little', bom: false };
  if (b0 === 0x00 && b1 !== 0x00) return { name: 'UTF-16', endian: 'big', bom: false };
  if (b0 !== 0x00 && b1 === 0x00) return { name: 'UTF-16', endian: 'little', bom: false };
  return undefined;
}

export function wideMessage(e: WideEncoding): string {
  return `the file is ${e.name} (${e.endian}-endian, ${e.bom ? 'with' : 'without'} a byte order mark), not UTF-8: save it as UTF-8`;
}
