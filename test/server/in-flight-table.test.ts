import { describe, expect, it } from 'vitest';
import { InFlightTable } from '../../src/server/in-flight-table.js';

describe('InFlightTable', () => {
  it('keeps requests by id, a number and a string of the same digits apart', () => {
    const table = new InFlightTable<{ name: string }>();
    const one = { name: 'one' };
    const text = { name: 'text' };
    table.set(1, one);
    table.set('1', text);
    expect(table.has(1)).toBe(true);
    expect(table.get(1)).toBe(one);
    expect(table.get('1')).toBe(text);
    expect(table.has(2)).toBe(false);
    expect(table.values()).toEqual([one, text]);
  });

  it('finds every request whichever left first, and takes new ones after', () => {
    const table = new InFlightTable<{ id: number }>();
    const entries = [1, 2, 3].map((id) => ({ id }));
    for (const entry of entries) table.set(entry.id, entry);
    table.delete(1);
    expect(table.has(1)).toBe(false);
    expect(table.get(2)).toBe(entries[1]);
    expect(table.get(3)).toBe(entries[2]);
    const fourth = { id: 4 };
    table.set(4, fourth);
    expect(table.get(4)).toBe(fourth);
    table.delete(3);
    expect(table.values()).toEqual([fourth, entries[1]]);
    table.delete(4);
    table.delete(2);
    expect(table.values()).toEqual([]);
    expect(table.has(2)).toBe(false);
  });
});
