import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoalescingWriter } from './persist.js';
import { atomicWrite, removeStaleTemps } from '../../lib/atomic-write.js';
import { blobOid } from './ids.js';
import { emptyData, HUB_DATA_VERSION, type HubData } from './types.js';

const DATA_FILE = 'hub.json';

/**
 * The hub's records, in memory, mirrored to `<dataDir>/hub.json` when a data
 * folder is given. File contents are blobs named by their git oid, written
 * before the record that points at them, so a kill never leaves a dangling one.
 */
export class HubStore {
  private readonly blobCache = new Map<string, Buffer>();
  private readonly writer: CoalescingWriter;
  private lastWritten: string | null = null;

  private constructor(readonly data: HubData, private readonly dir: string | null) {
    this.writer = new CoalescingWriter(() => this.writeNow());
  }

  static async open(dir: string | null): Promise<HubStore> {
    if (!dir) return new HubStore(emptyData(), null);
    await mkdir(join(dir, 'blobs'), { recursive: true, mode: 0o700 });
    await removeStaleTemps(dir);
    await removeStaleTemps(join(dir, 'blobs'));
    return new HubStore(await loadData(join(dir, DATA_FILE)), dir);
  }

  get persistent(): boolean {
    return this.dir !== null;
  }

  /** Resolves once the current records are on disk (no-op in memory). */
  save(): Promise<void> {
    return this.dir ? this.writer.flush() : Promise.resolve();
  }

  async putBlob(content: Buffer): Promise<string> {
    const oid = blobOid(content);
    if (this.blobCache.has(oid)) return oid;
    if (this.dir) await atomicWrite(join(this.dir, 'blobs', oid), content);
    this.blobCache.set(oid, content);
    return oid;
  }

  async getBlob(oid: string): Promise<Buffer> {
    const hit = this.blobCache.get(oid);
    if (hit) return hit;
    if (!this.dir) throw new Error(`blob ${oid} missing`);
    const content = await readFile(join(this.dir, 'blobs', oid));
    this.blobCache.set(oid, content);
    return content;
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
  if (parsed.format_version !== HUB_DATA_VERSION) {
    throw new Error(`${file}: unsupported format_version ${String(parsed.format_version)} (this robotctl reads ${HUB_DATA_VERSION})`);
  }
  return { ...emptyData(), ...parsed } as HubData;
}
