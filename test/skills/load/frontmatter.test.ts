import { beforeAll, describe, expect, it } from 'vitest';
import { rewriteCitations } from '../../../src/skills/catalogue/citations.js';
import { parseArguments } from '../../../src/skills/load/arguments.js';
import { keyLines, loadYaml, parseFrontmatter, readFrontmatter } from '../../../src/skills/load/frontmatter.js';
import { validateSkillFrontmatter } from '../../../src/skills/load/validate.js';

describe('readFrontmatter', () => {
  // Runs before the parseFrontmatter tests load the YAML parser (vitest runs a file's tests in order).
  it('loads the YAML parser for a block that needs it, and parseFrontmatter refuses until then', async () => {
    expect(parseFrontmatter('---\nname: a\ndescription: b\n---\n').ok).toBe(true);
    expect(() => parseFrontmatter('---\nname: a\nmetadata:\n  k: v\n---\n')).toThrow(/loadYaml/);
    expect(await readFrontmatter('---\nname: a\nmetadata:\n  k: v\n---\n')).toMatchObject({ ok: true, value: { data: { name: 'a', metadata: { k: 'v' } } } });
    expect(parseFrontmatter('---\nname: a\nmetadata:\n  k: v\n---\n').ok).toBe(true);
  });
});

describe('parseFrontmatter', () => {
  beforeAll(loadYaml);

  it('splits frontmatter and body, with the body line', () => {
    const result = parseFrontmatter('---\nname: a\ndescription: b\n---\n# Body\n');
    expect(result).toEqual({ ok: true, value: { data: { name: 'a', description: 'b' }, body: '# Body\n', bodyOffset: 31, bodyLine: 5 } });
  });

  it('accepts a BOM and CRLF line ends', () => {
    const result = parseFrontmatter('\uFEFF---\r\nname: a\r\n---\r\nbody');
    expect(result.ok && result.value.data).toEqual({ name: 'a' });
    expect(result.ok && result.value.body).toBe('body');
  });

  it('treats text without frontmatter as all body', () => {
    expect(parseFrontmatter('# Just text')).toEqual({ ok: true, value: { data: {}, body: '# Just text', bodyOffset: 0, bodyLine: 1 } });
  });

  it('reports invalid YAML with the line in the file', () => {
    expect(parseFrontmatter('---\nname: a\ndescription: [x\n---\n')).toMatchObject({ ok: false, code: 'invalid_yaml', line: 3 });
    expect(parseFrontmatter('---\nname: a\nname: b\n---\n')).toMatchObject({ ok: false, code: 'invalid_yaml', line: 3 });
  });

  it("leaves the YAML parser's own position out of the message, which has the file's line", () => {
    // The parser counts lines of the block, not of the file, and ends with a colon before its excerpt.
    expect(parseFrontmatter('---\nname: a\ndescription: a: b\n---\n')).toEqual({
      ok: false,
      code: 'invalid_yaml',
      line: 3,
      message: 'Invalid YAML: Nested mappings are not allowed in compact mappings',
    });
    expect(parseFrontmatter('---\nname: a\nname: b\n---\n')).toMatchObject({ message: 'Invalid YAML: Map keys must be unique' });
  });

  it('reports an unclosed block and a non-mapping', () => {
    expect(parseFrontmatter('---\nname: a\n')).toMatchObject({ ok: false, code: 'unclosed_frontmatter', line: 1 });
    expect(parseFrontmatter('---\n- a\n- b\n---\n')).toMatchObject({ ok: false, code: 'invalid_frontmatter' });
  });

  it('refuses alias bombs instead of expanding them', () => {
    const bomb = [
      '---',
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...'bcdefghij'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(',')}]`),
      '---',
      '',
    ].join('\n');
    expect(() => parseFrontmatter(bomb)).not.toThrow();
    expect(parseFrontmatter(bomb).ok).toBe(false);
  });
});

describe('validateSkillFrontmatter', () => {
  it('accepts a well-formed skill with no findings but notes for extension keys', () => {
    expect(validateSkillFrontmatter({ name: 'pdf', description: 'Does PDFs.', license: 'MIT', metadata: { a: 'b' } }, 'pdf', 'pdf/SKILL.md')).toEqual([]);
    expect(validateSkillFrontmatter({ name: 'pdf', description: 'x', 'argument-hint': '[a]' }, 'pdf', 'p')).toEqual([
      { severity: 'note', code: 'extension_key', path: 'p', message: '"argument-hint" is an extension of Claude Code, not an Agent Skills key' },
    ]);
  });

  it.each([
    [{ description: 'x' }, 'missing_name', 'error'],
    [{ name: 'a' }, 'missing_description', 'error'],
    [{ name: 'a', description: '   ' }, 'missing_description', 'error'],
    [{ name: 'Bad_Name', description: 'x' }, 'invalid_name', 'warning'],
    [{ name: 'a--b', description: 'x' }, 'invalid_name', 'warning'],
    [{ name: '-a', description: 'x' }, 'invalid_name', 'warning'],
    [{ name: 'a'.repeat(65), description: 'x' }, 'name_too_long', 'warning'],
    [{ name: 'a', description: 'x'.repeat(1025) }, 'description_too_long', 'warning'],
    [{ name: 'a', description: 'x', metadata: { n: 1 } }, 'invalid_metadata', 'warning'],
    [{ name: 'a', description: 'x', compatibility: 'y'.repeat(501) }, 'invalid_compatibility', 'warning'],
    [{ name: 'a', description: 'x', 'allowed-tools': ['Read'] }, 'invalid_allowed_tools', 'warning'],
  ])('flags %j as %s', (data, code, severity) => {
    const name = (data as { name?: unknown }).name;
    const folder = typeof name === 'string' ? name : 'a';
    expect(validateSkillFrontmatter(data, folder, 'f')).toContainEqual(expect.objectContaining({ code, severity }));
  });

  it('warns when the name differs from the folder', () => {
    expect(validateSkillFrontmatter({ name: 'a', description: 'x' }, 'b', 'f')).toEqual([
      { severity: 'warning', code: 'name_mismatch', path: 'f', message: 'The name "a" differs from its folder "b"' },
    ]);
  });
});

describe('keyLines', () => {
  beforeAll(loadYaml);
  const text = [
    '\uFEFF---', // 1
    'name: pdf', // 2
    '"description": Fills forms.', // 3
    'arguments:', // 4
    '  - name: a', // 5
    '    values: [x]', // 6
    '  - description: no name', // 7
    '    required: true', // 8
    'metadata:', // 9
    '  name: not the top-level one', // 10
    '---', // 11
    'name: in the body', // 12
  ].join('\r\n');

  it("finds top-level keys, plain or quoted, in the file's lines", () => {
    const lines = keyLines(text);
    expect(lines(['name'])).toBe(2);
    expect(lines(['description'])).toBe(3);
    expect(lines(['metadata'])).toBe(9);
    expect(lines(['license'])).toBeUndefined();
  });

  it('finds keys and list items below them, or the deepest part of the path that is there', () => {
    const lines = keyLines(text);
    expect(lines(['arguments', 0])).toBe(5);
    expect(lines(['arguments', 0, 'values'])).toBe(6);
    expect(lines(['arguments', 1])).toBe(7);
    expect(lines(['arguments', 1, 'name'])).toBe(7);
    expect(lines(['arguments', 5])).toBe(4);
    expect(lines(['metadata', 'name'])).toBe(10);
  });

  it('finds nothing in a text without frontmatter', () => {
    expect(keyLines('name: a\n')(['name'])).toBeUndefined();
    expect(keyLines('---\nname: a\n')(['name'])).toBeUndefined();
  });

  it('gives findings the line of their key', async () => {
    const skill = '---\nname: Pdf\ndescription: x\nlicense: [MIT]\ncustom: 1\n---\n';
    const parsed = await readFrontmatter(skill);
    const found = validateSkillFrontmatter(parsed.ok ? parsed.value.data : {}, 'pdf', 'f', keyLines(skill));
    // One finding for the name: it breaks the rule and differs from the folder, one mistake.
    expect(found.map((i) => [i.code, i.line])).toEqual([
      ['invalid_name', 2],
      ['invalid_license', 4],
      ['extension_key', 5],
    ]);
    // A key that is not there has no line.
    expect(validateSkillFrontmatter({ description: 'x' }, 'pdf', 'f', keyLines('---\ndescription: x\n---\n'))).toEqual([
      { severity: 'error', code: 'missing_name', path: 'f', message: 'The frontmatter has no "name"' },
    ]);
  });

  it('gives argument findings the line of the argument', async () => {
    const skill = ['---', 'arguments:', '  - name: a', '  - name: a', '  - 7', '  - name: b', '    values: 3', '  - {}', '---', ''].join('\n');
    const parsed = await readFrontmatter(skill);
    const { issues } = parseArguments(parsed.ok ? parsed.value.data.arguments : undefined, 'f', keyLines(skill));
    expect(issues.map((i) => [i.message, i.line])).toEqual([
      ['The argument "a" is declared twice', 4],
      ['arguments[2] must be a mapping', 5],
      ['arguments[3].values must be a list of strings', 7],
      ['arguments[4] needs a "name" of letters, digits, "_" or "-"', 8],
    ]);
    const notAList = '---\nname: x\narguments: 3\n---\n';
    const scalar = await readFrontmatter(notAList);
    expect(parseArguments(scalar.ok ? scalar.value.data.arguments : undefined, 'f', keyLines(notAList)).issues[0]?.line).toBe(3);
  });
});

describe('rewriteCitations', () => {
  const targets = { local: new Map([['forms', 'pdf-references-forms']]), shared: new Map([['style', 'docs-references-style']]) };

  it('rewrites the path only and leaves prose and unknown citations alone', () => {
    expect(rewriteCitations('See references/forms.md, then ./references/forms.md.', targets)).toBe('See pdf-references-forms, then pdf-references-forms.');
    expect(rewriteCitations('[guide](references/forms.md) and ../references/style.md', targets)).toBe(
      '[guide](pdf-references-forms) and docs-references-style',
    );
    expect(rewriteCitations('references/other.md a/references/forms.md references/forms.mdx', targets)).toBe(
      'references/other.md a/references/forms.md references/forms.mdx',
    );
  });
});

describe('parseFrontmatter fast path', () => {
  beforeAll(loadYaml);
  // Every case is compared with the YAML parser: the fast path must never change a result.
  const cases = [
    'name: pdf\ndescription: Fill PDF forms, e.g. tax forms v1.2. Use it often.',
    'name: a\ndescription: plain text with a colon:inside and a hash#inside',
    'name: a\ndescription: has a comment # here',
    'name: a\ndescription: key: value inside',
    'name: a\nversion: 1.2',
    'name: a\nflag: true',
    'name: a\nflag: yes',
    'name: a\nwhen: 2024-01-01',
    'name: a\nempty:',
    'name: a\nlist: [a, b]',
    'name: a\nquoted: "x"',
    'name: a\nname: b',
    'name: a\nmetadata:\n  k: v',
    'name: a\ndescription: trailing spaces   ',
    'name: a\ndescription: ends with colon:',
    'name: a\ndescription: -leading dash',
    'name: a\ndescription: ünïcödé and 日本語 🎉',
    'name: a\nnum: 0x1F',
    'name: a\ninf: .inf',
    'name: a\ntilde: ~',
  ];
  it.each(cases)('matches the YAML parser for %j', async (yaml) => {
    const { parse } = await import('yaml');
    const result = parseFrontmatter(`---\n${yaml}\n---\nbody`);
    let expected: unknown;
    try {
      expected = parse(yaml, { uniqueKeys: true });
    } catch {
      expected = undefined;
    }
    if (expected === undefined) expect(result.ok).toBe(false);
    else expect(result.ok && result.value.data).toEqual(expected);
  });
});
