import { setTimeout as sleep } from 'node:timers/promises';
import type { HubClient } from '../drivers/hub/types.js';
import { isStaleParent } from '../drivers/hub/errors.js';
import { UserError, errorMessage } from '../lib/errors.js';

// The files of a private dataset repo read at one commit, and written with
// that commit as parent_commit: the hub refuses the write when main moved
// (another writer, a lease renewal), and the caller re-reads and decides.
// This process's own writers of the repo (the state, its lease, an agent's
// leader lease) take turns from read to commit (`exclusive`): only another
// process can make their parent stale. Racing each other, they made a state
// write give up after 10 tries on a loaded machine, and lease renewals and
// releases fail.

export interface RepoSnapshot {
  /** Head of main when read; the parent_commit of the next write. */
  sha: string;
  /** Text of the wanted files present at that commit. */
  files: Map<string, string>;
}

export class StaleParent extends Error {
  constructor() {
    super('main moved since it was read');
    this.name = 'StaleParent';
  }
}

/**
 * A write's guard found what it was decided from too old to act on (this
 * process was paused or starved since it read): nothing was sent. A StaleParent,
 * so the caller reads again and decides anew.
 */
export class StaleRead extends StaleParent {
  constructor() {
    super();
    this.message = 'what was read is too old to write on';
    this.name = 'StaleRead';
  }
}

export class HubRepo {
  private created = false;
  /** The end of the last read-then-commit step of this process (exclusive). */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly hub: HubClient, readonly repoId: string) {}

  /** null when the repo does not exist yet. */
  async snapshot(paths: string[]): Promise<RepoSnapshot | null> {
    const info = await this.call('read', () => this.hub.repoInfo('dataset', this.repoId));
    if (!info) return null;
    const present = new Set(info.siblings.map((s) => s.rfilename));
    const files = new Map<string, string>();
    await Promise.all(paths.filter((p) => present.has(p)).map(async (p) => {
      const body = await this.call('read', () => this.hub.downloadFile('dataset', this.repoId, p, info.sha));
      files.set(p, body.toString('utf8'));
    }));
    return { sha: info.sha, files };
  }

  /** The snapshot, creating the repo (private) on first use. */
  async ensure(paths: string[]): Promise<RepoSnapshot> {
    const snap = await this.snapshot(paths);
    if (snap) return snap;
    if (!this.created) {
      await this.call('create', () => this.hub.createRepo('dataset', this.repoId, { private: true, existOk: true }));
      this.created = true;
    }
    // Another first user may be creating it at the same moment: give its first commit a little time.
    for (let attempt = 0; attempt < 20; attempt++) {
      const again = await this.snapshot(paths).catch(() => null);
      if (again) return again;
      await sleep(100 * (attempt + 1));
    }
    throw new UserError(`the hub dataset ${this.repoId} could not be created (it is still missing after create)`);
  }

  /** Runs `step` (a read, then a commit on it) after this process's other steps on the repo, alone. */
  exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.turn.then(step, step);
    this.turn = run.catch(() => {});
    return run;
  }

  /**
   * One commit on `parent`; StaleParent when main moved. `content` null
   * deletes the file. `guard` is asked before each request the commit sends
   * (a lease's fence); what it throws is thrown as is, nothing more sent.
   */
  async commit(parent: string, files: Record<string, string | null>, summary: string, guard?: () => void): Promise<string> {
    const ops = Object.entries(files).map(([path, content]) => (content === null
      ? { op: 'delete' as const, path }
      : { op: 'add' as const, path, content: Buffer.from(content) }));
    let refused: { err: unknown } | null = null;
    const asked = guard && ((): void => {
      try {
        guard();
      } catch (err) {
        refused = { err };
        throw err;
      }
    });
    try {
      return (await this.hub.commit('dataset', this.repoId, ops, summary, undefined, parent, asked)).commitOid;
    } catch (err) {
      if (refused) throw (refused as { err: unknown }).err;
      if (isStaleParent(err)) throw new StaleParent();
      throw new UserError(`cannot write to the hub dataset ${this.repoId}: ${errorMessage(err)}`);
    }
  }

  private async call<T>(what: 'read' | 'create', fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const verb = what === 'read' ? 'read' : 'create';
      throw new UserError(`cannot ${verb} the hub dataset ${this.repoId} that holds the state: ${errorMessage(err)}`);
    }
  }
}
