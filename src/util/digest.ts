/**
 * A content digest for list versions (see paginate.ts): the same text gives
 * the same 16 hex digits in every process, so replicas serving equal content
 * agree on a list's version without talking to each other.
 *
 * Not cryptographic, by choice: the core imports no `node:*` and must stay
 * synchronous, and nothing here defends against an adversary. A collision
 * (about 2^-32 for a given pair of lists, two independent 32-bit lanes) only
 * means a cursor minted for one list is accepted on another: the client gets
 * a page of the list being served, as it would after a reload, never data it
 * could not list anyway.
 */

/** Mixes a 32-bit lane to spread its bits (the finalizer of MurmurHash3, by its published constants). */
function finish(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** 64 bits of digest over `text`'s UTF-16 code units, as 16 lowercase hex digits. */
export function digestText(text: string): string {
  // Two lanes with different primes and seeds: FNV-1a style steps, then a finalizer each.
  let a = 0x811c9dc5 ^ text.length;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (
    finish(a).toString(16).padStart(8, '0') +
    finish(b ^ text.length)
      .toString(16)
      .padStart(8, '0')
  );
}
