/**
 * Sizes that say a module or a function has become two things (issue 21):
 * no file in src/ over 300 lines, no function over 80, counted with every
 * closure it holds (a factory is as long as the object it builds).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';

const SRC = join(ROOT, 'src');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every function in `source` longer than the limit, as "path:line name (N lines)". */
function longFunctions(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const lineOf = (at: number) => source.getLineAndCharacterOfPosition(at).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.end) - lineOf(node.getStart(source)) + 1;
      if (lines > MAX_FUNCTION_LINES) {
        const name = 'name' in node && node.name ? (node.name as ts.Node).getText(source) : '(anonymous)';
        found.push(`${relative(ROOT, path)}:${lineOf(node.getStart(source))} ${name} (${lines} lines)`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('sizes', () => {
  const sources = files(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('reads the sources', () => {
    expect(sources.length).toBeGreaterThan(50);
  });

  it(`keeps every file under ${MAX_FILE_LINES} lines`, () => {
    const long = sources
      .map(({ path, text }) => ({ path: relative(ROOT, path), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ path, lines }) => `${path} (${lines} lines)`);
    expect(long).toEqual([]);
  });

  it(`keeps every function under ${MAX_FUNCTION_LINES} lines`, () => {
    expect(sources.flatMap(({ path, text }) => longFunctions(path, text))).toEqual([]);
  });

  it('counts a closure with its factory', () => {
    const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = `export function make() {\n  return { run() {\n${body}\n  } };\n}\n`;
    expect(longFunctions(join(SRC, 'example.ts'), text).map((line) => line.split(' ')[1])).toEqual(['make', 'run']);
  });
});
