/**
 * ARCHITECTURE.md names every file of src/ and no file that is gone, so the
 * map cannot fall behind a move or a new module (issue 21). A file is named
 * by its path from src/ or by any shorter tail of it that no other file shares
 * (`node.ts` is transport/http/node.ts; `serve.ts` is two files, so neither).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every tail of a path: a/b/c.ts, b/c.ts, c.ts. */
function tails(path: string): string[] {
  const parts = path.split('/');
  return parts.map((_, i) => parts.slice(i).join('/'));
}

/** The `.ts` names a text shows in code spans, without a leading `src/`. */
function namesIn(text: string): Set<string> {
  return new Set([...text.matchAll(/`([^`\s]+\.ts)`/g)].map((m) => (m[1] as string).replace(/^src\//, '')));
}

/** The files of `sources` that `names` does not name. */
function unnamed(sources: readonly string[], names: ReadonlySet<string>): string[] {
  const shared = new Map<string, number>();
  for (const source of sources) for (const tail of tails(source)) shared.set(tail, (shared.get(tail) ?? 0) + 1);
  return sources.filter((source) => !names.has(source) && !tails(source).some((tail) => names.has(tail) && shared.get(tail) === 1));
}

describe('ARCHITECTURE.md', () => {
  const map = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const sources = files(join(ROOT, 'src')).map((path) => relative(join(ROOT, 'src'), path));

  it('names every file of src/', () => {
    expect(sources.length).toBeGreaterThan(50);
    expect(unnamed(sources, namesIn(map))).toEqual([]);
  });

  it('names no file that is not in src/ or test/', () => {
    const known = new Set([...sources, ...files(join(ROOT, 'test')).map((path) => relative(ROOT, path))].flatMap(tails));
    const gone = [...namesIn(map)].filter((name) => name.includes('/') && !/[<*]/.test(name) && !known.has(name));
    expect(gone).toEqual([]);
  });

  it('counts a tail two files share as naming neither', () => {
    const sources = ['cli/commands/serve.ts', 'transport/http/serve.ts', 'transport/http/node.ts'];
    expect(unnamed(sources, namesIn('`serve.ts` and `node.ts`'))).toEqual(['cli/commands/serve.ts', 'transport/http/serve.ts']);
    expect(unnamed(sources, namesIn('`http/serve.ts`, `commands/serve.ts`, `src/transport/http/node.ts`'))).toEqual([]);
  });
});
