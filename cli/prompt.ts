// Reading answers from stdin (a terminal or a pipe); null at end of input.

export function readLine(input: NodeJS.ReadStream = process.stdin): Promise<string | null> {
  return new Promise((resolve) => {
    let buf = '';
    const done = (v: string | null) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onEnd);
      input.pause();
      resolve(v);
    };
    const onData = (d: Buffer) => {
      buf += d.toString('utf8');
      const nl = buf.indexOf('\n');
      if (nl >= 0) done(buf.slice(0, nl).replace(/\r$/, ''));
    };
    const onEnd = () => done(buf === '' ? null : buf);
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onEnd);
    input.resume();
  });
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
