/**
 * util/bytes.ts: chunks joined in order, and a stream read whole only while it
 * stays within its cap (cancelled past it).
 */
import { describe, expect, it } from 'vitest';
import { concatBytes, readCapped } from '../../src/util/bytes.js';

function streamOf(chunks: Uint8Array[], cancelled: { value: boolean }): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
    cancel() {
      cancelled.value = true;
    },
  });
}

describe('bytes', () => {
  it('joins chunks in order, and gives a lone chunk back as it is', () => {
    expect(concatBytes([Uint8Array.of(1, 2), Uint8Array.of(), Uint8Array.of(3)])).toEqual(Uint8Array.of(1, 2, 3));
    expect(concatBytes([], 0)).toEqual(new Uint8Array(0));
    const lone = Uint8Array.of(9);
    expect(concatBytes([lone])).toBe(lone);
  });

  it('reads a stream whole up to its cap, and cancels it past the cap', async () => {
    const kept = { value: false };
    expect(await readCapped(streamOf([Uint8Array.of(1, 2), Uint8Array.of(3)], kept), 3)).toEqual(Uint8Array.of(1, 2, 3));
    expect(kept.value).toBe(false);
    const cut = { value: false };
    expect(await readCapped(streamOf([Uint8Array.of(1, 2), Uint8Array.of(3, 4)], cut), 3)).toBeUndefined();
    expect(cut.value).toBe(true);
    expect(await readCapped(null, 0)).toEqual(new Uint8Array(0));
  });
});
