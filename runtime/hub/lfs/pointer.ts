// Git LFS pointer files (the spec's v1): what git stores in place of a large
// file, `version …`, `oid sha256:<hex>`, `size <bytes>`. Pure.

const VERSION_LINE = 'version https://git-lfs.github.com/spec/v1';
/** The spec caps a pointer at 1024 bytes; the smallest valid one is a little over 120. */
export const POINTER_MAX_BYTES = 1024;
export const POINTER_MIN_BYTES = 100;

export interface LfsPointer {
  /** sha256 of the content, lowercase hex. */
  oid: string;
  size: number;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function formatPointer(p: LfsPointer): Buffer {
  return Buffer.from(`${VERSION_LINE}\noid sha256:${p.oid}\nsize ${p.size}\n`);
}

/** The pointer a blob holds, or null when the blob is ordinary content. */
export function parsePointer(blob: Buffer): LfsPointer | null {
  if (blob.length < POINTER_MIN_BYTES || blob.length > POINTER_MAX_BYTES) return null;
  const lines = blob.toString('utf8').split('\n');
  if (lines[0] !== VERSION_LINE) return null;
  let oid: string | null = null;
  let size: number | null = null;
  for (const line of lines.slice(1)) {
    if (line.startsWith('oid sha256:')) oid = line.slice('oid sha256:'.length);
    else if (line.startsWith('size ')) size = /^\d{1,15}$/.test(line.slice(5)) ? Number(line.slice(5)) : null;
  }
  return oid !== null && SHA256_HEX.test(oid) && size !== null ? { oid, size } : null;
}
