import { createInterface, type Interface } from 'node:readline/promises';

// Reading answers from stdin (a terminal or a pipe); null at end of input.
// One readline interface per stream, kept between questions: a pipe that
// delivers several answers in one chunk keeps the later ones for the next
// question instead of dropping them. Between questions the stream is paused,
// so a waiting pipe never keeps the process alive.

interface LineReader {
  rl: Interface;
  lines: AsyncIterator<string>;
}

const readers = new WeakMap<NodeJS.ReadableStream, LineReader>();

function readerFor(input: NodeJS.ReadableStream): LineReader {
  let reader = readers.get(input);
  if (!reader) {
    const rl = createInterface({ input, terminal: false, crlfDelay: Infinity });
    reader = { rl, lines: rl[Symbol.asyncIterator]() };
    readers.set(input, reader);
  }
  return reader;
}

export async function readLine(input: NodeJS.ReadableStream = process.stdin): Promise<string | null> {
  const { rl, lines } = readerFor(input);
  rl.resume();
  try {
    const next = await lines.next();
    return next.done === true ? null : next.value;
  } finally {
    rl.pause();
  }
}

/** A secret typed at a terminal without echo; from a pipe, the first line. */
export async function readSecret(prompt: (t: string) => void, input: NodeJS.ReadStream = process.stdin): Promise<string | null> {
  if (!input.isTTY) return readLine(input);
  prompt('Enter your token (input will not be visible): ');
  input.setRawMode(true);
  try {
    return await new Promise((resolve) => {
      let buf = '';
      const onData = (d: Buffer) => {
        for (const ch of d.toString('utf8')) {
          if (ch === '\r' || ch === '\n') { input.off('data', onData); input.pause(); prompt('\n'); resolve(buf); return; }
          if (ch === '\u0003' || ch === '\u0004') { input.off('data', onData); input.pause(); prompt('\n'); resolve(null); return; }
          if (ch === '\u007f' || ch === '\b') buf = buf.slice(0, -1);
          else buf += ch;
        }
      };
      input.on('data', onData);
      input.resume();
    });
  } finally {
    input.setRawMode(false);
  }
}
