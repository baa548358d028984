/**
 * The sealed requestState of input-required requests (2026-07-28
 * basic/patterns/mrtr): what the client echoes is refused unless it is the
 * server's own, unexpired, and issued for this method and these params.
 */
import { describe, expect, it } from 'vitest';
import { createStateCodec } from '../../src/protocol/rev2026-07-28/request-state.js';

const KEY = new TextEncoder().encode('k'.repeat(32));
const PARAMS = { name: 'ask', arguments: { a: 1, b: [1, 2] }, _meta: { any: 'thing' } };
const ANSWERS = { user_name: { action: 'accept', content: { name: 'Ada' } } };

describe('requestState', () => {
  it('carries the answers back for the same method and params, whatever the key order, envelope and input', async () => {
    const codec = createStateCodec(KEY, 60_000);
    const state = await codec.seal('tools/call', PARAMS, ANSWERS);
    expect(state).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const retry = { arguments: { b: [1, 2], a: 1 }, name: 'ask', _meta: { other: true }, inputResponses: { x: {} }, requestState: state };
    expect(await codec.open(state, 'tools/call', retry)).toEqual(ANSWERS);
    // Any process with the same key takes the retry.
    expect(await createStateCodec(KEY, 60_000).open(state, 'tools/call', PARAMS)).toEqual(ANSWERS);
  });

  it('refuses an altered, foreign, expired or misplaced state with -32602', async () => {
    let now = 1_000_000;
    const codec = createStateCodec(KEY, 1000, () => now);
    const state = await codec.seal('tools/call', PARAMS, ANSWERS);
    const [prefix, body, mac] = state.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), a: { user_name: { action: 'accept', content: { name: 'Eve' } } } }),
    ).toString('base64url');
    const refusals = [
      `${state}-TAMPERED`,
      `${prefix}.${forged}.${mac}`,
      `${prefix}.${body}.${mac.slice(1)}`,
      `v2.${body}.${mac}`,
      `${state}.extra`,
      '',
      12345,
      null,
    ];
    for (const bad of refusals) {
      await expect(codec.open(bad, 'tools/call', PARAMS), String(bad)).rejects.toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    }
    await expect(createStateCodec(new TextEncoder().encode('x'.repeat(32)), 1000, () => now).open(state, 'tools/call', PARAMS)).rejects.toMatchObject({
      code: -32602,
    });
    await expect(codec.open(state, 'prompts/get', PARAMS)).rejects.toMatchObject({ code: -32602 });
    await expect(codec.open(state, 'tools/call', { ...PARAMS, arguments: { a: 2, b: [1, 2] } })).rejects.toMatchObject({ code: -32602 });
    expect(await codec.open(state, 'tools/call', PARAMS)).toEqual(ANSWERS);
    now += 1001;
    await expect(codec.open(state, 'tools/call', PARAMS)).rejects.toMatchObject({ code: -32602 });
  });
});
