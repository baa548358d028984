/**
 * A skills folder as a catalogue: prompts (the floor and past it), resources
 * under skill:// URIs, Skills-extension entries, and broken input.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/skills/catalogue/catalogue.js';
import { ROOT } from '../../_stdio-client.js';

const VALID = `${ROOT}test/fixtures/skills/valid`;
const BROKEN = `${ROOT}test/fixtures/skills/broken`;

function render(catalogue: Awaited<ReturnType<typeof buildCatalogue>>, name: string, args: Record<string, string> = {}) {
  const entry = catalogue.promptsByName.get(name);
  if (!entry) throw new Error(`no prompt ${name}`);
  return entry.render(args);
}

describe('buildCatalogue on a valid folder', () => {
  it('makes each skill a prompt named by its name, listed with the first sentence of its description', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const byName = new Map(catalogue.prompts.map((p) => [p.name, p]));
    expect(byName.get('pdf-tools')?.description).toBe('Fill, merge and inspect PDF files, e.g. tax forms v1.2 or contracts.');
    expect(byName.get('localized')?.description).toBe('A skill with a French variant.');
    expect(byName.get('unicode-skill')?.description).toBe('日本語の説明です。');
    // The one warning is a citation the fixture keeps unresolved on purpose (see the next test).
    expect(catalogue.issues.filter((i) => i.severity !== 'note')).toEqual([
      {
        severity: 'warning',
        code: 'missing_file',
        path: 'pdf-tools/SKILL.md',
        line: 12,
        message: `The text cites "references/missing.md", but the skill's folder has no such file`,
      },
    ]);
  });

  it('returns SKILL.md verbatim, frontmatter included, with reference citations rewritten path only to the prompt and the resource', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const original = readFileSync(`${VALID}/pdf-tools/SKILL.md`, 'utf8');
    const { text, description } = render(catalogue, 'pdf-tools');
    expect(description).toBe('Fill, merge and inspect PDF files, e.g. tax forms v1.2 or contracts. Use when a task mentions a PDF.');
    expect(text).toBe(
      original
        .replace('Read references/forms.md before', 'Read pdf-tools-references-forms (skill://pdf-tools/references/forms.md) before')
        .replace('(references/forms.md)', '(skill://pdf-tools/references/forms.md)')
        .replace('../references/style.md and references/style.md', 'valid-references-style and valid-references-style'),
    );
    expect(text).toContain('references/missing.md');
    expect(text).toContain('xreferences/forms.md');
    expect(render(catalogue, 'unicode-skill').text).toBe(readFileSync(`${VALID}/unicode-skill/SKILL.md`, 'utf8'));
  });

  it('serves reference documents as <skill>-references-<slug> and shared ones under the folder prefix', async () => {
    const catalogue = await buildCatalogue([VALID]);
    expect(render(catalogue, 'pdf-tools-references-forms').text).toBe(readFileSync(`${VALID}/pdf-tools/references/forms.md`, 'utf8'));
    expect(catalogue.prompts.find((p) => p.name === 'pdf-tools-references-forms')?.description).toBe('Filling PDF forms');
    expect(catalogue.prompts.find((p) => p.name === 'valid-references-style')?.description).toBe('The shared house style for every skill.');
    const custom = await buildCatalogue([VALID], { prefix: 'house' });
    expect(custom.promptsByName.has('house-references-style')).toBe(true);
    expect(render(custom, 'pdf-tools').text).toContain('house-references-style');
  });

  it('declares arguments, substitutes placeholders in the body only, and completes in context', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const prompt = catalogue.prompts.find((p) => p.name === 'greeting');
    expect(prompt?.arguments).toEqual([
      { name: 'who', description: 'Whom to greet', required: true },
      { name: 'language', description: 'Language of the greeting' },
      { name: 'variant', description: 'Regional variant' },
    ]);
    const { text } = render(catalogue, 'greeting', { who: 'Ada', language: 'french', variant: 'fr-CA' });
    expect(text.startsWith('---\nname: greeting\n')).toBe(true);
    expect(text).toContain('Say hello to Ada in french (fr-CA). Keep {{who}} literal.');
    expect(text).toContain('description: Whom to greet');
    const entry = catalogue.promptsByName.get('greeting');
    const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
    expect((await entry?.completers.get('language')?.('fr', { arguments: {} }, ctx))?.values).toEqual(['french']);
    expect((await entry?.completers.get('variant')?.('', { arguments: { language: 'french' } }, ctx))?.values).toEqual(['fr-FR', 'fr-CA']);
    expect((await entry?.completers.get('variant')?.('us', { arguments: {} }, ctx))?.values).toEqual(['en-US']);
  });

  it('adds a locale argument for SKILL.<locale>.md variants and serves the variant on request', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const prompt = catalogue.prompts.find((p) => p.name === 'localized');
    expect(prompt?.arguments).toEqual([
      {
        name: 'locale',
        description:
          'Language of the skill text as a BCP 47 tag: fr; a longer tag gets the closest of these (RFC 4647 lookup, e.g. fr-CA gets fr), any other tag or none the default text',
      },
    ]);
    expect(render(catalogue, 'localized').text).toContain('Hello in English.');
    const french = render(catalogue, 'localized', { locale: 'fr' });
    expect(french.text).toBe(readFileSync(`${VALID}/localized/SKILL.fr.md`, 'utf8'));
    expect(french.description).toBe('Une compétence avec une variante française. Deuxième phrase.');
  });

  it('picks the locale variant by RFC 4647 §3.4 lookup: a longer tag falls back to a shorter one, an unmatched tag to the default text', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const french = render(catalogue, 'localized', { locale: 'fr' });
    const english = render(catalogue, 'localized');
    for (const locale of ['fr-CA', 'FR', 'fr-Latn-CA-1996-u-nu-latn-x-quebec', 'fr-x-private']) {
      expect(render(catalogue, 'localized', { locale })).toEqual(french);
    }
    for (const locale of ['en', 'en-GB', 'de', 'frr', 'x-fr', 'i-klingon', 'zh-cmn-Hans-CN', 'de-1901-1901']) {
      expect(render(catalogue, 'localized', { locale })).toEqual(english);
    }
    expect(render(catalogue, 'localized', { locale: '' })).toEqual(english);
  });

  it('completes a locale to the variant tags, and a longer tag to the variant lookup gives it', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const complete = catalogue.promptsByName.get('localized')?.completers.get('locale');
    const ctx = { signal: new AbortController().signal, logger: { debug() {}, info() {}, warn() {}, error() {} } };
    const values = async (value: string) => (await complete?.(value, { arguments: {} }, ctx))?.values;
    expect(await values('')).toEqual(['fr']);
    expect(await values('F')).toEqual(['fr']);
    expect(await values('fr-CA')).toEqual(['fr']);
    expect(await values('fr-x-quebec')).toEqual(['fr']);
    expect(await values('en')).toEqual([]);
    expect(await values('fr_CA')).toEqual([]);
  });

  it('refuses a locale that is not a well-formed BCP 47 tag (RFC 5646 §2.1) with an ArgumentValueError', async () => {
    const catalogue = await buildCatalogue([VALID]);
    for (const locale of ['fr_CA', 'fr-', '-fr', 'fr--CA', 'f', 'français', 'fr-CA-x', 'fr-a-b', '*', ' fr']) {
      expect(() => render(catalogue, 'localized', { locale }), locale).toThrow(
        expect.objectContaining({
          name: 'ArgumentValueError',
          message: `Skill "localized": ${JSON.stringify(locale)} is not a BCP 47 language tag (RFC 5646)`,
        }),
      );
    }
  });

  it('maps plain prompt files, Claude Code commands and VS Code prompt files onto prompts', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const byName = new Map(catalogue.prompts.map((p) => [p.name, p]));
    expect(byName.get('summarize')).toEqual({
      name: 'summarize',
      description: 'Summarize a text in a given number of bullet points.',
      arguments: [
        { name: 'count', description: 'How many bullets' },
        { name: 'text', required: true },
      ],
    });
    expect(render(catalogue, 'summarize', { count: '3', text: 'Long text.' }).text).toBe('Summarize in 3 bullets:\n\nLong text.\n');
    expect(byName.get('frontend:review')?.arguments).toEqual([{ name: 'arguments', description: '[pr-number] [priority]' }]);
    // Claude Code's docs leave the hint unquoted, which is not YAML; it still loads.
    expect(byName.get('deploy')?.arguments).toEqual([{ name: 'arguments', description: '[service] [environment]' }]);
    expect(render(catalogue, 'deploy', { arguments: 'api staging' }).text).toBe('Deploy api to staging.\n');
    expect(render(catalogue, 'frontend:review', { arguments: '42 "very high"' }).text).toBe(
      'Review PR #42 with priority very high. All arguments: 42 "very high". Missing: $3.\n',
    );
    expect(byName.get('component')?.arguments).toEqual([
      { name: 'componentName', description: 'Name of the component', required: true },
      { name: 'framework', required: true },
    ]);
    expect(render(catalogue, 'component', { componentName: 'Button', framework: 'react' }).text).toBe('Create Button using react in ${workspaceFolder}.\n');
  });

  it('exposes every file of a skill under skill://<name>/<path> with sizes, digests and MIME types', async () => {
    const catalogue = await buildCatalogue([VALID]);
    const entry = catalogue.skillsByUri.get('skill://pdf-tools/SKILL.md');
    expect(entry?.frontmatter).toEqual({
      name: 'pdf-tools',
      description: 'Fill, merge and inspect PDF files, e.g. tax forms v1.2 or contracts. Use when a task mentions a PDF.',
      license: 'MIT',
      metadata: { author: 'skillport tests' },
    });
    const files = entry?.resources === 'dynamic' ? [] : (entry?.resources ?? []);
    expect(files.map((f) => f.uri)).toEqual([
      'skill://pdf-tools/SKILL.md',
      'skill://pdf-tools/assets/logo.png',
      'skill://pdf-tools/references/forms.md',
      'skill://pdf-tools/scripts/fill.py',
      'skill://pdf-tools/templates/letter.txt',
    ]);
    for (const file of files) {
      const bytes = readFileSync(`${VALID}/pdf-tools/${file.uri.slice('skill://pdf-tools/'.length)}`);
      expect(file.size).toBe(bytes.length);
      expect(file.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    }
    const resources = new Map(catalogue.resources.map((r) => [r.uri, r]));
    expect(resources.get('skill://pdf-tools/SKILL.md')).toMatchObject({
      name: 'pdf-tools',
      mimeType: 'text/markdown',
      description: entry?.frontmatter.description,
    });
    expect(catalogue.files.get('skill://pdf-tools/assets/logo.png')?.record).toMatchObject({ mimeType: 'image/png', text: false });
    expect(catalogue.files.get('skill://pdf-tools/scripts/fill.py')?.record.text).toBe(true);
    expect(catalogue.directories.get('skill://pdf-tools')?.map((r) => [r.name, r.mimeType])).toEqual([
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['scripts', 'inode/directory'],
      ['templates', 'inode/directory'],
      ['SKILL.md', 'text/markdown'],
    ]);
    expect(catalogue.directories.get('skill://pdf-tools/references')?.map((r) => r.uri)).toEqual(['skill://pdf-tools/references/forms.md']);
  });
});

describe('buildCatalogue on broken input', () => {
  it('reports each problem with file and line and serves the rest', async () => {
    const catalogue = await buildCatalogue([BROKEN]);
    const found = catalogue.issues.map((i) => [i.severity, i.code, i.path, i.line]);
    expect(found).toContainEqual(['error', 'invalid_yaml', 'bad-yaml/SKILL.md', 3]);
    // A key that is missing has no line; one that is there gives its line.
    expect(found).toContainEqual(['error', 'missing_name', 'no-name/SKILL.md', undefined]);
    expect(found).toContainEqual(['error', 'missing_description', 'no-description/SKILL.md', undefined]);
    expect(found).toContainEqual(['warning', 'name_mismatch', 'Mismatched_Folder/SKILL.md', 2]);
    expect(found).toContainEqual(['note', 'extension_key', 'Mismatched_Folder/SKILL.md', 4]);
    expect(found.filter((f) => f[1] === 'duplicate_name')).toEqual([['warning', 'duplicate_name', 'dup-b/SKILL.md', 2]]);
    expect(catalogue.issues.some((i) => 'folder' in i)).toBe(false);
    expect(catalogue.prompts.map((p) => p.name).sort()).toEqual(['dup', 'fine', 'mismatched-name']);
    // Deterministic: the first folder in sorted order wins.
    expect(render(catalogue, 'dup').text).toContain('First dup.');
  });

  it('leaves out a locale variant whose name is not a language tag, or differs from another only in case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillport-locales-'));
    try {
      mkdirSync(join(dir, 'multi'));
      const file = (name: string, description: string) =>
        writeFileSync(join(dir, 'multi', name), `---\nname: multi\ndescription: ${description}\n---\n${description}\n`);
      file('SKILL.md', 'Default.');
      file('SKILL.pt-BR.md', 'Brasil.');
      file('SKILL.pt-br.md', 'Brasil again.');
      file('SKILL.fr-12.md', 'Malformed.');
      file('SKILL.zh-Hant.md', 'Traditional.');
      const catalogue = await buildCatalogue([dir]);
      expect(catalogue.issues.filter((i) => i.code.includes('locale'))).toEqual([
        {
          severity: 'warning',
          code: 'invalid_locale_variant',
          path: 'multi/SKILL.fr-12.md',
          message: 'Locale variant left out: "fr-12" is not a BCP 47 language tag (RFC 5646)',
        },
        {
          severity: 'warning',
          code: 'duplicate_locale_variant',
          path: 'multi/SKILL.pt-br.md',
          message: 'Locale variant left out: SKILL.pt-BR.md has the same tag ("pt-br" and "pt-BR" differ only in case)',
        },
      ]);
      expect(catalogue.prompts[0]?.arguments?.[0]?.description).toMatch(/^Language of the skill text as a BCP 47 tag: pt-BR, zh-Hant;/);
      expect(render(catalogue, 'multi', { locale: 'PT-br' }).description).toBe('Brasil.');
      expect(render(catalogue, 'multi', { locale: 'zh-Hant-TW' }).description).toBe('Traditional.');
      expect(render(catalogue, 'multi', { locale: 'fr' }).description).toBe('Default.');
      // Still files of the skill, as any other.
      expect(catalogue.files.has('skill://multi/SKILL.fr-12.md') && catalogue.files.has('skill://multi/SKILL.pt-br.md')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('buildCatalogue on several folders', () => {
  it('names the folder of each finding, and both folders of a duplicate', async () => {
    const catalogue = await buildCatalogue([BROKEN, VALID, BROKEN]);
    const duplicates = catalogue.issues.filter((i) => i.code === 'duplicate_name' && i.path === 'fine/SKILL.md');
    expect(duplicates).toEqual([
      {
        severity: 'warning',
        code: 'duplicate_name',
        path: 'fine/SKILL.md',
        line: 2,
        message: `The skill "fine" is already served from ${BROKEN}/fine; the one in ${BROKEN} is not served`,
        folder: BROKEN,
      },
    ]);
    expect(catalogue.issues.filter((i) => i.code === 'missing_name').map((i) => i.folder)).toEqual([BROKEN, BROKEN]);
    expect(catalogue.issues.filter((i) => i.code === 'extension_key' && i.path === 'greeting/SKILL.md').map((i) => i.folder)).toEqual([VALID]);
    expect(catalogue.issues.every((i) => i.folder !== undefined)).toBe(true);
  });

  it('names the folder of a prompt a duplicate prompt name lost to', async () => {
    const catalogue = await buildCatalogue([VALID, VALID]);
    const summarize = catalogue.issues.find((i) => i.code === 'duplicate_name' && i.path === 'prompts/summarize.md');
    expect(summarize).toMatchObject({
      folder: VALID,
      message: `The prompt name "summarize" is already taken by ${VALID}/prompts/summarize.md; this one is not served`,
    });
  });
});
