import { describe, expect, it } from 'vitest';
import { parseUriTemplate } from '../../src/util/uri-template.js';

describe('parseUriTemplate', () => {
  it('matches simple expressions within one path segment and decodes them', () => {
    const template = parseUriTemplate('test://template/{id}/data');
    expect(template.variables).toEqual(['id']);
    expect(template.match('test://template/123/data')).toEqual({ id: '123' });
    expect(template.match('test://template/a%20b/data')).toEqual({ id: 'a b' });
    expect(template.match('test://template/1/2/data')).toBeUndefined();
    expect(template.match('test://template//data')).toBeUndefined();
  });

  it('lets reserved expressions span slashes', () => {
    const template = parseUriTemplate('skill://{skill}/{+path}');
    expect(template.match('skill://pdf/references/forms.md')).toEqual({ skill: 'pdf', path: 'references/forms.md' });
  });

  it('expands values, encoding simple expressions', () => {
    expect(parseUriTemplate('x://{a}/{+b}').expand({ a: 'a/b c', b: 'c/d e' })).toBe('x://a%2Fb%20c/c/d%20e');
  });

  it('rejects operators it does not support and repeated variables', () => {
    expect(() => parseUriTemplate('x://{?q}')).toThrow(/Unsupported URI template/);
    expect(() => parseUriTemplate('x://{a}/{a}')).toThrow(/repeats/);
  });

  it('treats regular-expression characters in literals literally', () => {
    expect(parseUriTemplate('x://a.b/{id}').match('x://aXb/1')).toBeUndefined();
    expect(parseUriTemplate('x://a.b/{id}').match('x://a.b/1')).toEqual({ id: '1' });
  });

  it('rejects a match whose value is not valid percent-encoding', () => {
    expect(parseUriTemplate('x://{id}').match('x://%E0%A4%A')).toBeUndefined();
  });

  it('splits several reserved expressions at the first occurrence of the text between them, and the last one at the closing text', () => {
    const template = parseUriTemplate('docs://{+section}/pages/{+page}.md');
    expect(template.match('docs://guides/setup/pages/install/linux.md')).toEqual({ section: 'guides/setup', page: 'install/linux' });
    expect(template.match('docs://a/pages/b.md/c.md')).toEqual({ section: 'a', page: 'b.md/c' });
    expect(parseUriTemplate('notes://{+path}.txt').match('notes://a.txt/b.txt')).toEqual({ path: 'a.txt/b' });
  });

  it('rejects two expressions with nothing between them, which no URI could split', () => {
    expect(() => parseUriTemplate('x://{a}{b}')).toThrow(/nothing between them/);
  });
});
