import { describe, expect, it } from 'vitest';
import { encodePrompt, SHAPE_2025_06_18 } from '../../src/protocol/rev2025-06-18/encode.js';
import { SHAPE_2025_11_25 } from '../../src/protocol/rev2025-11-25/index.js';

describe('encodePrompt', () => {
  const prompt = { name: 'p', description: 'd', icons: [{ src: 'data:image/png;base64,AA==' }] };

  it('encodes a catalogue entry with the fields of its shape', () => {
    expect(encodePrompt(prompt, SHAPE_2025_11_25)).toEqual({ name: 'p', description: 'd', icons: [{ src: 'data:image/png;base64,AA==' }] });
  });

  it('keeps each revision to its own fields', () => {
    expect(encodePrompt(prompt, SHAPE_2025_06_18)).toEqual({ name: 'p', description: 'd' });
  });

  it('encodes a replaced entry afresh', () => {
    const replaced = { ...prompt, description: 'new' };
    expect(encodePrompt(replaced, SHAPE_2025_11_25)).toMatchObject({ description: 'new' });
  });
});
