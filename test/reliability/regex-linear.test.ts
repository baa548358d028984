/**
 * Every regular expression over untrusted text runs in linear time (issue: a
 * frontmatter line `description: a<80,000 spaces>b` took 7 s to load, a
 * Claude `argument-hint: [<spaces>x` 5.6 s, and a VS Code body with
 * `${input:a:` repeated 12,000 times 3.4 s on every prompts/get).
 *
 * Each regular expression literal in src/ is found with the TypeScript parser
 * and checked by recheck, a ReDoS checker that proves a pattern's matching
 * complexity (static analysis, and fuzzing where the pattern has lookaround)
 * and reports an attack string when it is worse than linear; the patterns
 * built at run time from URI templates are checked the same way. Then the
 * inputs from the issue, at their reported sizes, load and render correctly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compileSchema, UNASSERTED_FORMATS } from '../../src/core/tool-schema.js';
import { substituteVsCode, vsCodeInputs } from '../../src/skills/formats/substitute.js';
import { parseFrontmatter } from '../../src/skills/load/frontmatter.js';
import { loadPromptFile } from '../../src/skills/load/prompt-files.js';
import { SKILL_FILE_TEMPLATE } from '../../src/skills/provider.js';
import { templatePattern } from '../../src/util/uri-template.js';
import { ROOT } from './_harness.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every regular expression literal in src/, with where it is. */
function literals(): Array<{ where: string; source: string; flags: string }> {
  const found: Array<{ where: string; source: string; flags: string }> = [];
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const tree = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(tree);
        const slash = text.lastIndexOf('/');
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        found.push({ where: `${file.slice(ROOT.length)}:${line}`, source: text.slice(1, slash), flags: text.slice(slash + 1) });
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  return found;
}

/** What recheck says of each pattern that it cannot show to be linear. */
function unsafe(patterns: ReadonlyArray<{ where: string; source: string; flags: string }>, timeout = 20_000): string[] {
  const problems: string[] = [];
  for (const { where, source, flags } of patterns) {
    const result = checkSync(source, flags, { timeout });
    if (result.status === 'vulnerable') problems.push(`${where} /${source}/${flags}: ${result.complexity.summary}, e.g. ${result.attack.pattern}`);
    else if (result.status === 'unknown') problems.push(`${where} /${source}/${flags}: not decided (${result.error.kind})`);
  }
  return problems;
}

describe('regular expressions over untrusted text', () => {
  it('are all linear: every literal in src/', () => {
    const patterns = literals();
    // A floor, so that a parser change that finds nothing cannot pass.
    expect(patterns.length).toBeGreaterThan(30);
    expect(unsafe(patterns)).toEqual([]);
  }, 300_000);

  it('are all linear: the patterns URI templates build', () => {
    const templates = [SKILL_FILE_TEMPLATE, 'repo://{owner}/{+path}', 'docs://{+section}/pages/{+page}.md', 'x://{a}-{b}-{c}', 'notes://{+path}.txt'];
    expect(unsafe(templates.map((template) => ({ where: template, source: templatePattern(template).source, flags: '' })))).toEqual([]);
  }, 120_000);

  it('are all linear: the formats the JSON Schema validator of tool arguments asserts', async () => {
    // The validator's format patterns are top-level `const NAME = /.../` lines of its format module.
    const text = readFileSync(join(ROOT, 'node_modules/@cfworker/json-schema/dist/esm/format.js'), 'utf8');
    const patterns = [...text.matchAll(/^const (\w+) = \/(.*)\/([a-z]*);$/gm)].map(([, name, source, flags]) => ({
      where: name as string,
      source: source as string,
      flags: flags as string,
    }));
    expect(patterns.length).toBeGreaterThan(10);
    // The module names each pattern after its format; the unsafe ones are those this project does not assert.
    const unasserted = [...UNASSERTED_FORMATS].map((format) => `${format.toUpperCase().replace(/-/g, '_')}_`);
    // The validator's URI patterns are long: recheck gets more time for them on a busy machine.
    expect(unsafe(patterns, 60_000).map((problem) => problem.split(' ')[0])).toEqual(unasserted);
    // And they are not asserted: any string passes.
    const tool = compileSchema({ type: 'object', properties: { u: { type: 'string', format: 'url' } } }, 't', 'inputSchema');
    expect(await tool.validate({ u: `ftp://192.168.2.04${'8172.30.3.453'.repeat(27)}\u0000` })).toMatchObject({ ok: true });
  }, 300_000);

  it('loads and renders the reported inputs at their reported sizes', async () => {
    const spaces = ' '.repeat(80_000);
    const parsed = parseFrontmatter(`---\nname: wide\ndescription: a${spaces}b\n---\nBody.\n`);
    expect(parsed.ok && parsed.value.data.description).toBe(`a${spaces}b`);
    const trailing = parseFrontmatter(`---\nname: wide\ndescription: ab${spaces}\n---\n`);
    expect(trailing.ok && trailing.value.data.description).toBe('ab');

    const hint = `[${' '.repeat(40_000)}x`;
    const issues: never[] = [];
    const command = await loadPromptFile(
      { rel: '.claude/commands/wide.md', format: 'claude-command', key: 'wide' },
      `---\nargument-hint: ${hint}\n---\nRun $1.\n`,
      issues,
    );
    expect(command?.args[0]?.description).toBe(hint);

    const body = '${input:a:'.repeat(12_000);
    expect(vsCodeInputs(body)).toEqual([]);
    expect(substituteVsCode(body, { a: 'x' })).toBe(body);
    expect(vsCodeInputs(`${body}\${input:b:Name} and \${input:a}`)).toEqual([{ name: 'b', placeholder: 'Name' }, { name: 'a' }]);
  });
});
