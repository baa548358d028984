/**
 * The schema referee (test/_schema.ts) serves only tests tagged `schema`, so
 * every test that needs the official schemas is one that a fresh clone skips
 * (see test/e2e/fresh-clone-schemas.test.ts) instead of failing.
 */
import { describe, expect, it } from 'vitest';
import { hasDefinition, schemaErrors } from '../_schema.js';

describe('schema referee', () => {
  it('refuses a test not tagged schema, before it looks for the schemas', () => {
    expect(() => schemaErrors('2026-07-28', 'Resource', {})).toThrow(
      /"test\/architecture\/schema-referee\.test\.ts > schema referee > refuses .*" uses the schema referee but is not tagged 'schema'/,
    );
    expect(() => hasDefinition('2026-07-28', 'Resource')).toThrow(/not tagged 'schema'/);
  });

  it('judges for a tagged test', { tags: ['schema'] }, () => {
    expect(hasDefinition('2026-07-28', 'Resource')).toBe(true);
    expect(schemaErrors('2026-07-28', 'Resource', { uri: 'file:///a.md', name: 'a' })).toEqual([]);
    expect(schemaErrors('2026-07-28', 'Resource', { name: 'a' })).not.toEqual([]);
  });
});
