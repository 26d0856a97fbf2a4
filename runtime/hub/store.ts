import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoalescingWriter } from './persist.js';
import { atomicWrite, removeStaleTemps } from '../../lib/atomic-write.js';
import { emptyData, HUB_DATA_VERSION, type HubData } from './types.js';

const DATA_FILE = 'hub.json';

/**
 * The hub's records, in memory, mirrored to `<dataDir>/hub.json` when a data
 * folder is given. Repository content lives in bare git repos beside it
 * (git/git-repos.ts); a repo's record is written after its git repo.
 */
export class HubStore {
  private readonly writer: CoalescingWriter;
  private lastWritten: string | null = null;

  private constructor(readonly data: HubData, private readonly dir: string | null) {
    this.writer = new CoalescingWriter(() => this.writeNow());
  }

  static async open(dir: string | null): Promise<HubStore> {
    if (!dir) return new HubStore(emptyData(), null);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await removeStaleTemps(dir);
    return new HubStore(await loadData(join(dir, DATA_FILE)), dir);
  }

  get persistent(): boolean {
    return this.dir !== null;
  }

  /** Resolves once the current records are on disk (no-op in memory). */
  save(): Promise<void> {
    return this.dir ? this.writer.flush() : Promise.resolve();
  }

  /** A file of version-1 data (read once, to move it into git). */
  async legacyBlob(oid: string): Promise<Buffer> {
    if (!this.dir || !/^[0-9a-f]{40}$/.test(oid)) throw new Error(`blob ${oid} missing`);
    return readFile(join(this.dir, 'blobs', oid));
  }

  /** Where the bare git repos live (null: a temp folder). */
  get gitDir(): string | null {
    return this.dir;
  }

  private async writeNow(): Promise<void> {
    if (!this.dir) return;
    const text = JSON.stringify(this.data);
    if (text === this.lastWritten) return;
    await atomicWrite(join(this.dir, DATA_FILE), text);
    this.lastWritten = text;
  }
}

async function loadData(file: string): Promise<HubData> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyData();
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<HubData>;
  if ((parsed.format_version as number) === 1) return { ...emptyData(), ...parsed, format_version: HUB_DATA_VERSION } as HubData;
  if (parsed.format_version !== HUB_DATA_VERSION) {
    throw new Error(`${file}: unsupported format_version ${String(parsed.format_version)} (this robotctl reads ${HUB_DATA_VERSION})`);
  }
  return { ...emptyData(), ...parsed } as HubData;
}
