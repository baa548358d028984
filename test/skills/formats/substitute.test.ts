import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputLimitError } from '../../../src/core/errors.js';
import {
  splitShellWords,
  substituteClaude,
  substituteTemplate,
  substituteVsCode,
  templateVariables,
  vsCodeInputs,
} from '../../../src/skills/formats/substitute.js';

describe('splitShellWords', () => {
  it.each<[string, string[]]>([
    ['', []],
    ['   \t\n ', []],
    ['123 high', ['123', 'high']],
    ['  spaced   out  ', ['spaced', 'out']],
    ['a\tb\nc', ['a', 'b', 'c']],
    [`'single $HOME \\n' x`, ['single $HOME \\n', 'x']],
    ['"double quoted" x', ['double quoted', 'x']],
    ['"say \\"hi\\"" x', ['say "hi"', 'x']],
    ['"back\\\\slash"', ['back\\slash']],
    ['"keep \\n and \\$"', ['keep \\n and \\$']],
    ["it\\'s fine", ["it's", 'fine']],
    ['one\\ word', ['one word']],
    ['a"b c"d', ['ab cd']],
    [`'it'"'"'s'`, ["it's"]],
    ["a '' b", ['a', '', 'b']],
    ['""', ['']],
    ['"unterminated rest of it', ['unterminated rest of it']],
    ["x 'open  spaces", ['x', 'open  spaces']],
    ['trailing\\', ['trailing\\']],
    ['naïve 日本語 "é è"', ['naïve', '日本語', 'é è']],
  ])('splits %j', (raw, words) => {
    expect(splitShellWords(raw)).toEqual(words);
  });

  it('never throws, whatever the input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (raw) => {
        const words = splitShellWords(raw);
        expect(Array.isArray(words)).toBe(true);
      }),
    );
  });

  it('round-trips words that were single-quoted and joined by spaces (property)', () => {
    const word = fc.string({ maxLength: 20 }).filter((w) => !w.includes("'"));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        expect(splitShellWords(words.map((w) => `'${w}'`).join(' '))).toEqual(words);
      }),
    );
  });
});

describe('substituteClaude', () => {
  it('replaces $ARGUMENTS with the raw string as typed', () => {
    expect(substituteClaude('Fix: $ARGUMENTS', '123 "high priority"')).toBe('Fix: 123 "high priority"');
    expect(substituteClaude('[$ARGUMENTS]', '')).toBe('[]');
  });

  it('replaces $1 and $2 with shell-split words counted from one', () => {
    expect(substituteClaude('Issue #$1 at $2 priority', '123 "very high"')).toBe('Issue #123 at very high priority');
  });

  it('leaves a missing positional literal', () => {
    expect(substituteClaude('$1 $2 $3', 'a b')).toBe('a b $3');
    expect(substituteClaude('Issue $1', '')).toBe('Issue $1');
  });

  it('reads $10 as the tenth word, not $1 followed by 0', () => {
    const raw = 'a b c d e f g h i j';
    expect(substituteClaude('$10|$1|$9', raw)).toBe('j|a|i');
    expect(substituteClaude('$10', 'a b')).toBe('$10');
  });

  it('leaves $0 literal when counting from one and fills it when zero-based', () => {
    expect(substituteClaude('$0 $1', 'x y')).toBe('$0 x');
    expect(substituteClaude('$0 $1 $2', 'x y', { zeroBased: true })).toBe('x y $2');
  });

  it('fills $ARGUMENTS[N] counted from zero in both modes', () => {
    expect(substituteClaude('$ARGUMENTS[0]/$ARGUMENTS[1]', '"a b" c')).toBe('a b/c');
    expect(substituteClaude('$ARGUMENTS[5]', 'a')).toBe('$ARGUMENTS[5]');
  });

  it('does not substitute forms Claude Code does not support', () => {
    expect(substituteClaude('${1} $1abc $1_x', 'v')).toBe('${1} $1abc $1_x');
    expect(substituteClaude('\\$1', 'v')).toBe('\\v');
  });

  it('substitutes a positional followed by punctuation', () => {
    expect(substituteClaude('($1), $1. $1-fix', 'v')).toBe('(v), v. v-fix');
  });

  it('does not expand placeholders inside values', () => {
    expect(substituteClaude('$1 then $2', '$2 $ARGUMENTS')).toBe('$2 then $ARGUMENTS');
    expect(substituteClaude('$ARGUMENTS and $1', "'$1'")).toBe("'$1' and $1");
  });

  it('inserts values containing $& and $1 replacement patterns verbatim', () => {
    expect(substituteClaude('[$1]', "'$&$$'")).toBe('[$&$$]');
    expect(substituteClaude('[$ARGUMENTS]', '$&')).toBe('[$&]');
  });
});

describe('vsCodeInputs', () => {
  it('lists inputs with and without placeholders in order of first appearance', () => {
    const body = 'Create ${input:componentName:Name of the component} with ${input:framework}.';
    expect(vsCodeInputs(body)).toEqual([{ name: 'componentName', placeholder: 'Name of the component' }, { name: 'framework' }]);
  });

  it('lists each name once and keeps its first non-empty placeholder', () => {
    const body = '${input:a} ${input:b:B here} ${input:a:A later} ${input:b:ignored} ${input:a:also ignored}';
    expect(vsCodeInputs(body)).toEqual([
      { name: 'a', placeholder: 'A later' },
      { name: 'b', placeholder: 'B here' },
    ]);
  });

  it('omits an empty placeholder', () => {
    expect(vsCodeInputs('${input:x:}')).toEqual([{ name: 'x' }]);
  });

  it('ignores the other VS Code variables and malformed names', () => {
    const body = '${selection} ${file} ${workspaceFolder} ${env:HOME} ${input:} ${input:1bad} ${input:ok-name_2}';
    expect(vsCodeInputs(body)).toEqual([{ name: 'ok-name_2' }]);
  });

  it('keeps colons in the placeholder text', () => {
    expect(vsCodeInputs('${input:url:Base URL: https://example.com}')).toEqual([{ name: 'url', placeholder: 'Base URL: https://example.com' }]);
  });

  it('returns nothing for a body without inputs', () => {
    expect(vsCodeInputs('Plain ${selection} text')).toEqual([]);
  });
});

describe('substituteVsCode', () => {
  it('replaces inputs with and without placeholders, every occurrence', () => {
    const body = 'Create ${input:name:Component name} in ${input:framework}; name it ${input:name}.';
    expect(substituteVsCode(body, { name: 'Button', framework: 'React' })).toBe('Create Button in React; name it Button.');
  });

  it('leaves unknown names and other variables literal', () => {
    expect(substituteVsCode('${input:a} ${input:b:hint} ${selection}', { a: '1' })).toBe('1 ${input:b:hint} ${selection}');
  });

  it('does not mistake inherited object keys for values', () => {
    expect(substituteVsCode('${input:constructor} ${input:toString}', {})).toBe('${input:constructor} ${input:toString}');
  });

  it('does not expand inputs inside values', () => {
    expect(substituteVsCode('${input:a} ${input:b}', { a: '${input:b}', b: 'B' })).toBe('${input:b} B');
  });

  it('substitutes every listed input (property)', () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/);
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 5 }), (names) => {
        const body = names.map((n, i) => (i % 2 === 0 ? `\${input:${n}}` : `\${input:${n}:hint ${i}}`)).join(' / ');
        expect(vsCodeInputs(body).map((input) => input.name)).toEqual(names);
        const values = Object.fromEntries(names.map((n) => [n, `<${n}>`]));
        expect(substituteVsCode(body, values)).toBe(names.map((n) => `<${n}>`).join(' / '));
      }),
    );
  });
});

describe('templateVariables', () => {
  it('lists names once, in order, with or without spaces inside the braces', () => {
    expect(templateVariables('{{ language }} {{error}} {{\tlanguage\t}} {{b-2_x}}')).toEqual(['language', 'error', 'b-2_x']);
  });

  it('skips escaped placeholders and malformed names', () => {
    expect(templateVariables('\\{{literal}} {{1bad}} {{}} {{ a b }} {{ok}}')).toEqual(['ok']);
  });

  it('finds placeholders inside fenced code blocks', () => {
    expect(templateVariables('```sh\nrun {{ target }}\n```\n~~~\n{{other}}\n~~~')).toEqual(['target', 'other']);
  });
});

describe('substituteTemplate', () => {
  it('replaces placeholders with and without inner spaces', () => {
    expect(substituteTemplate('Review this {{ language }} diff in {{language}}.', { language: 'Go' })).toBe('Review this Go diff in Go.');
  });

  it('renders undefined and missing values as empty strings', () => {
    expect(substituteTemplate('[{{a}}][{{ b }}]', { a: undefined })).toBe('[][]');
  });

  it('renders an escaped placeholder literally without the backslash', () => {
    expect(substituteTemplate('Write \\{{name}} or \\{{ name }} for {{name}}.', { name: 'x' })).toBe('Write {{name}} or {{ name }} for x.');
  });

  it('substitutes inside fenced code blocks', () => {
    const body = 'Run:\n\n```sh\nscripts/check.sh {{ file }}\n```\n\n~~~\n{{file}}\n~~~\n';
    expect(substituteTemplate(body, { file: 'a.sql' })).toBe('Run:\n\n```sh\nscripts/check.sh a.sql\n```\n\n~~~\na.sql\n~~~\n');
  });

  it('leaves malformed placeholders and other braces alone', () => {
    const body = '{{1bad}} {{ a b }} {x} {{{a}}} ${a}';
    expect(substituteTemplate(body, { a: 'A' })).toBe('{{1bad}} {{ a b }} {x} {A} ${a}');
  });

  it('inserts values verbatim, without expanding placeholders or replacement patterns in them', () => {
    expect(substituteTemplate('{{a}} {{b}}', { a: '{{b}} $& $1', b: 'B' })).toBe('{{b}} $& $1 B');
  });

  it('ignores inherited object keys', () => {
    expect(substituteTemplate('[{{constructor}}]', {})).toBe('[]');
  });

  it('leaves no listed variable behind (property)', () => {
    const text = fc.string({ maxLength: 40 }).filter((s) => !s.includes('{') && !s.includes('}') && !s.includes('\\'));
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(text, name), { maxLength: 6 }), (parts) => {
        const body = parts.map(([t, n]) => `${t}{{ ${n} }}`).join('');
        const values = Object.fromEntries(templateVariables(body).map((n) => [n, 'v']));
        const rendered = substituteTemplate(body, values);
        expect(templateVariables(rendered)).toEqual([]);
        expect(rendered).toBe(parts.map(([t]) => `${t}v`).join(''));
      }),
    );
  });
});

describe('maxLength (the server prompt limit, applied while substituting)', () => {
  /** Values that count how often they are read: work done after the limit would show as reads. */
  function counting(value: string): { values: Record<string, string>; reads: () => number } {
    let reads = 0;
    const values = new Proxy({ text: value } as Record<string, string>, {
      get(target, key) {
        if (key === 'text') reads++;
        return target[key as string];
      },
    });
    return { values, reads: () => reads };
  }

  it('renders as without a limit when the output fits, the limit itself included', () => {
    expect(substituteTemplate('[{{a}}]', { a: 'xyz' }, 5)).toBe('[xyz]');
    expect(substituteVsCode('[${input:a}]', { a: 'xyz' }, 5)).toBe('[xyz]');
    expect(substituteClaude('[$ARGUMENTS]', 'xyz', {}, 5)).toBe('[xyz]');
  });

  it('throws OutputLimitError as soon as the output passes the limit, not after building it', () => {
    const many = (placeholder: string): string => `${placeholder}\n`.repeat(5000);
    const template = counting('x'.repeat(1000));
    expect(() => substituteTemplate(many('{{text}}'), template.values, 10_000)).toThrow(OutputLimitError);
    expect(template.reads()).toBeLessThanOrEqual(11);
    const vscode = counting('x'.repeat(1000));
    expect(() => substituteVsCode(many('${input:text}'), vscode.values, 10_000)).toThrow(OutputLimitError);
    expect(vscode.reads()).toBeLessThanOrEqual(11);
    expect(() => substituteClaude(many('$ARGUMENTS'), 'x'.repeat(1000), {}, 10_000)).toThrow(OutputLimitError);
  });

  it('counts text after the last placeholder, and a body over the limit on its own', () => {
    expect(() => substituteTemplate('{{a}}0123456789', { a: 'x' }, 10)).toThrow(OutputLimitError);
    expect(() => substituteTemplate('0123456789ab', {}, 10)).toThrow(OutputLimitError);
    // Placeholders that shrink the text count as shrinking it.
    expect(substituteTemplate('{{a}}{{b}}0123', {}, 4)).toBe('0123');
  });
});
