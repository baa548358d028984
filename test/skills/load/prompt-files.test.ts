/**
 * Prompt files as the public collections keep them: documentation beside the
 * prompts is not a prompt, and the blank line after the frontmatter is not
 * part of the prompt's text.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue, type Catalogue } from '../../../src/skills/catalogue/catalogue.js';
import { tree } from '../../_tree.js';

const render = (catalogue: Catalogue, name: string, args: Record<string, string> = {}) => catalogue.promptsByName.get(name)?.render(args).text;

describe('prompt files', () => {
  it('does not serve a folder’s README or other documentation as prompts', async () => {
    const catalogue = await buildCatalogue([
      tree({
        'prompts/README.md': '# Prompts\n\nHow to use these.\n',
        'prompts/summarize.md': '---\ndescription: Summarize.\n---\nSummarize.\n',
        '.github/prompts/README.md': '# Copilot prompts\n',
        '.github/prompts/Contributing.md': '# How to add one\n',
        '.github/prompts/review.prompt.md': '---\ndescription: Review.\n---\nReview ${input:file}.\n',
        '.claude/commands/CHANGELOG.md': '# Changes\n',
      }),
    ]);
    expect(catalogue.prompts.map((p) => p.name).sort()).toEqual(['review', 'summarize']);
    expect(catalogue.issues.filter((i) => i.code === 'duplicate_name')).toEqual([]);
  });

  it('starts the text after the blank lines that follow the frontmatter, in every format', async () => {
    const catalogue = await buildCatalogue([
      tree({
        'prompts/plain.md': '---\ndescription: Plain.\n---\n\n\nWrite {{thing}}.\n',
        '.claude/commands/fix.md': '---\ndescription: Fix.\nargument-hint: [issue]\n---\r\n\r\nFix issue #$1.\n',
        '.github/prompts/make.prompt.md': '---\ndescription: Make.\n---\n  \nMake ${input:what}.\n',
        'prompts/indented.md': '---\ndescription: Indented.\n---\n\n    code block first\n',
      }),
    ]);
    expect(render(catalogue, 'plain', { thing: 'tests' })).toBe('Write tests.\n');
    expect(render(catalogue, 'fix', { arguments: '7' })).toBe('Fix issue #7.\n');
    expect(render(catalogue, 'make', { what: 'a cake' })).toBe('Make a cake.\n');
    // Indentation is content: only whole blank lines go.
    expect(render(catalogue, 'indented')).toBe('    code block first\n');
  });
});
