import { errorMessage } from '../../lib/errors.js';

// What `up` started, stopped in reverse order. A failure to stop one piece
// is reported and the others are still stopped.

export class Teardown {
  private readonly closers: (() => Promise<void>)[] = [];

  constructor(private readonly log: (line: string) => void) {}

  add(close: () => Promise<void>): void {
    this.closers.push(close);
  }

  async run(): Promise<void> {
    while (this.closers.length > 0) {
      const close = this.closers.pop() as () => Promise<void>;
      await close().catch((err: unknown) => this.log(`while stopping: ${errorMessage(err)}`));
    }
  }
}
