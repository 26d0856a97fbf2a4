import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The LFS transfer links the batch API hands out carry their own short-lived
// permission, as the Hub's storage links do: huggingface_hub PUTs an object
// without its token (lfs.py, _upload_single_part). The key lives in memory
// only, so a restart ends every link.

export const LINK_SECONDS = 3600;

export class UrlSigner {
  private readonly key = randomBytes(32);

  /** `exp` (seconds since the epoch) and `sig` for a link doing `what` (operation, repo, oid, size). */
  sign(what: string[], now = Date.now()): { exp: string; sig: string } {
    const exp = String(Math.floor(now / 1000) + LINK_SECONDS);
    return { exp, sig: this.mac(what, exp) };
  }

  valid(what: string[], exp: unknown, sig: unknown, now = Date.now()): boolean {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp) || Number(exp) * 1000 < now) return false;
    const want = Buffer.from(this.mac(what, exp), 'hex');
    const got = Buffer.from(sig, 'hex');
    return got.length === want.length && timingSafeEqual(got, want);
  }

  private mac(what: string[], exp: string): string {
    return createHmac('sha256', this.key).update([...what, exp].join('\n')).digest('hex');
  }
}
