import { createHash, randomBytes, randomFillSync } from 'node:crypto';

let counter = randomBytes(3).readUIntBE(0, 3);

// Random bytes drawn a few kilobytes at a time: a call per id cost 5-10 µs,
// five times the rest of the id (measured), and a first apply makes thousands.
const pool = Buffer.alloc(5 * 1024);
let poolUsed = pool.length;

/** A 24-hex id shaped like the hub's (Mongo ObjectId: time, random, counter). */
export function objectId(now: number = Date.now()): string {
  const b = Buffer.allocUnsafe(12);
  b.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  if (poolUsed + 5 > pool.length) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  pool.copy(b, 4, poolUsed, poolUsed + 5);
  poolUsed += 5;
  counter = (counter + 1) & 0xffffff;
  b.writeUIntBE(counter, 9, 3);
  return b.toString('hex');
}

/** Deterministic id for things named by the operator (users, orgs). */
export function stableId(kind: string, name: string): string {
  return sha1(`${kind}:${name}`).slice(0, 24);
}

export function sha1(data: string | Buffer): string {
  return createHash('sha1').update(data).digest('hex');
}

/** Git's blob id, so a file's oid matches what git would compute. */
export function blobOid(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}
