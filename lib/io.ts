// The CLI's view of the terminal, injected so commands are testable in-process.
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** stdout is a terminal: colours, progress, prompts. */
  readonly isTTY: boolean;
  /** stdin is a terminal: confirmation prompts are possible. */
  readonly stdinIsTTY: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export function processIo(): Io {
  return {
    out: writerTo(process.stdout),
    err: writerTo(process.stderr),
    isTTY: Boolean(process.stdout.isTTY),
    // A getter: the first touch of process.stdin builds its stream (a few ms
    // of start-up), and only commands that may prompt ask.
    get stdinIsTTY() { return Boolean(process.stdin.isTTY); },
    env: process.env,
    cwd: process.cwd(),
  };
}

// A reader that goes away (`robotctl plan | head`) makes the next write fail
// with EPIPE, emitted as an 'error' event that would otherwise crash the
// process with a stack trace. The output is dropped from then on and the
// command goes on to its own end and exit code: an apply is never cut short
// half-way because its reader closed.
const guarded = new WeakSet<NodeJS.WriteStream>();
const closed = new WeakSet<NodeJS.WriteStream>();

function writerTo(stream: NodeJS.WriteStream): (text: string) => void {
  return (text) => {
    if (!guarded.has(stream)) {
      guarded.add(stream);
      stream.on('error', () => { closed.add(stream); });
    }
    if (!closed.has(stream)) stream.write(text);
  };
}

export function useColor(io: Io): boolean {
  return io.isTTY && !io.env.NO_COLOR && io.env.TERM !== 'dumb';
}

export const ansi = {
  green: (s: string) => `\x1b[32m${s}\x1b[0m`,
  red: (s: string) => `\x1b[31m${s}\x1b[0m`,
  yellow: (s: string) => `\x1b[33m${s}\x1b[0m`,
  bold: (s: string) => `\x1b[1m${s}\x1b[0m`,
  gray: (s: string) => `\x1b[90m${s}\x1b[0m`,
};
