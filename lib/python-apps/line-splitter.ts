// Output of apps and pip, cut into lines with a bounded cost: a line longer
// than MAX_LINE_BYTES is emitted once, cut, with a note of how it was cut,
// and the rest of it is skipped without being kept. Work is linear in the
// bytes received, whatever the line lengths (issue 12.5: 100 MB printed with
// no newline once made the daemon quadratic and 395 MB large).

export const MAX_LINE_BYTES = 8 * 1024;
export const CUT_NOTE = ' … [line cut at 8 KiB]';

export type LineSink = (line: string) => void;

export interface LineSplitter {
  push(chunk: Buffer): void;
  /** The stream ended: emit what is left. */
  end(): void;
}

function stripCr(b: Buffer): Buffer {
  return b.length > 0 && b[b.length - 1] === 0x0d ? b.subarray(0, b.length - 1) : b;
}

export function lineSplitter(emit: LineSink, max = MAX_LINE_BYTES): LineSplitter {
  let parts: Buffer[] = [];
  let size = 0;
  /** The current line was already emitted cut: skip until its newline. */
  let skipping = false;
  const take = (piece: Buffer): void => {
    if (skipping || piece.length === 0) return;
    const room = max - size;
    if (piece.length <= room) {
      parts.push(piece);
      size += piece.length;
      return;
    }
    parts.push(piece.subarray(0, room));
    emit(`${Buffer.concat(parts).toString('utf8')}${CUT_NOTE}`);
    parts = [];
    size = 0;
    skipping = true;
  };
  const finishLine = (): void => {
    if (!skipping) emit(stripCr(Buffer.concat(parts)).toString('utf8'));
    parts = [];
    size = 0;
    skipping = false;
  };
  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a, start); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        take(chunk.subarray(start, nl));
        finishLine();
        start = nl + 1;
      }
      take(chunk.subarray(start));
    },
    end() {
      if (size > 0) finishLine();
      parts = [];
      size = 0;
      skipping = false;
    },
  };
}

/** Feed a readable stream's bytes to a splitter. */
export function splitLines(stream: NodeJS.ReadableStream, emit: LineSink): void {
  const s = lineSplitter(emit);
  stream.on('data', (d: Buffer | string) => s.push(typeof d === 'string' ? Buffer.from(d) : d));
  stream.on('end', () => s.end());
}
