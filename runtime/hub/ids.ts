import { createHash, randomBytes } from 'node:crypto';

let counter = randomBytes(3).readUIntBE(0, 3);

/** A 24-hex id shaped like the hub's (Mongo ObjectId: time, random, counter). */
export function objectId(now: number = Date.now()): string {
  const b = Buffer.allocUnsafe(12);
  b.writeUInt32BE(Math.floor(now / 1000) >>> 0, 0);
  randomBytes(5).copy(b, 4);
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
