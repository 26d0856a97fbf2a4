// The input stream of `git fast-import` for one commit (pure): git builds the
// blobs, trees and commit itself; we only describe the change.

export type HubCommitOp =
  | { op: 'add'; path: string; content: Buffer }
  | { op: 'delete'; path: string }
  | { op: 'deleteFolder'; path: string };

export interface CommitSpec {
  /** Scratch ref the import writes; the caller moves the branch with a compare-and-swap. */
  ref: string;
  parent: string | null;
  author: { name: string; email: string };
  /** Seconds since the epoch. */
  time: number;
  message: string;
  ops: HubCommitOp[];
}

/** fast-import reads C-style quoted paths; quoting every path avoids any ambiguity. */
export function quotePath(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function data(content: Buffer | string): Buffer[] {
  const body = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  return [Buffer.from(`data ${body.length}\n`), body, Buffer.from('\n')];
}

export function fastImportStream(spec: CommitSpec): Buffer {
  const who = `${spec.author.name} <${spec.author.email}> ${spec.time} +0000`;
  const parts: Buffer[] = [
    Buffer.from(`reset ${spec.ref}\ncommit ${spec.ref}\nmark :1\nauthor ${who}\ncommitter ${who}\n`),
    ...data(spec.message),
  ];
  if (spec.parent) parts.push(Buffer.from(`from ${spec.parent}\n`));
  for (const op of spec.ops) {
    if (op.op === 'add') parts.push(Buffer.from(`M 100644 inline ${quotePath(op.path)}\n`), ...data(op.content));
    else parts.push(Buffer.from(`D ${quotePath(op.path.replace(/\/+$/, ''))}\n`));
  }
  parts.push(Buffer.from('\nget-mark :1\n'));
  return Buffer.concat(parts);
}
