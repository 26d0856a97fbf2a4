import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { sha256OfFile } from '../../lib/file-sha256.js';
import type { CommitOperation } from './types.js';

// The bytes of a file to commit, from memory or from a local file. A file is
// never held whole for an LFS upload: its sha256 is computed while reading it
// and the upload reads it again as a stream (huggingface_hub's UploadInfo and
// as_file()). Only a regular file, which goes inside the commit body, is read
// whole.

export type AddOperation = Extract<CommitOperation, { op: 'add' }>;

/** What preupload asks about a file: its size and its first 512 bytes. */
export interface UploadInfo {
  size: number;
  sample: Buffer;
}

const SAMPLE_BYTES = 512;

export async function uploadInfo(op: AddOperation): Promise<UploadInfo> {
  if ('content' in op) return { size: op.content.length, sample: op.content.subarray(0, SAMPLE_BYTES) };
  const handle = await open(op.file, 'r');
  try {
    const { size } = await handle.stat();
    const sample = Buffer.alloc(Math.min(size, SAMPLE_BYTES));
    const { bytesRead } = await handle.read(sample, 0, sample.length, 0);
    return { size, sample: sample.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}

/** The sha256 (hex) of the content, read in chunks: the LFS object id. */
export async function sha256Of(op: AddOperation): Promise<string> {
  if ('content' in op) return createHash('sha256').update(op.content).digest('hex');
  return sha256OfFile(op.file);
}

/** The content as an upload body, anew for each attempt. */
export function openContent(op: AddOperation): Buffer | Readable {
  return 'content' in op ? op.content : createReadStream(op.file);
}

/** The whole content, for a regular file's line in the commit body. */
export function readContent(op: AddOperation): Promise<Buffer> {
  return 'content' in op ? Promise.resolve(op.content) : readFile(op.file);
}
