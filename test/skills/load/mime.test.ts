import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProbablyText, mimeTypeFor } from '../../../src/skills/load/mime.js';

describe('mimeTypeFor', () => {
  it.each([
    ['SKILL.md', 'text/markdown'],
    ['notes.markdown', 'text/markdown'],
    ['a.txt', 'text/plain'],
    ['data.json', 'application/json'],
    ['config.yaml', 'application/yaml'],
    ['config.yml', 'application/yaml'],
    ['pyproject.toml', 'application/toml'],
    ['rows.csv', 'text/csv'],
    ['page.html', 'text/html'],
    ['page.htm', 'text/html'],
    ['style.css', 'text/css'],
    ['feed.xml', 'application/xml'],
    ['schemas/wml.xsd', 'application/xml'],
    ['notebook.ipynb', 'application/x-ipynb+json'],
    ['report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['Program.cs', 'text/x-csharp'],
    ['setup.ps1', 'text/x-powershell'],
    ['voice.m4a', 'audio/mp4'],
    ['app.js', 'text/javascript'],
    ['app.mjs', 'text/javascript'],
    ['app.cjs', 'text/javascript'],
    ['app.ts', 'text/x-typescript'],
    ['tool.py', 'text/x-python'],
    ['run.sh', 'text/x-shellscript'],
    ['run.bash', 'text/x-shellscript'],
    ['task.rb', 'text/x-ruby'],
    ['main.go', 'text/x-go'],
    ['lib.rs', 'text/x-rust'],
    ['Main.java', 'text/x-java'],
    ['main.c', 'text/x-c'],
    ['main.h', 'text/x-c'],
    ['main.cpp', 'text/x-c++'],
    ['query.sql', 'application/sql'],
    ['logo.svg', 'image/svg+xml'],
    ['logo.png', 'image/png'],
    ['photo.jpg', 'image/jpeg'],
    ['photo.jpeg', 'image/jpeg'],
    ['anim.gif', 'image/gif'],
    ['photo.webp', 'image/webp'],
    ['favicon.ico', 'image/vnd.microsoft.icon'],
    ['paper.pdf', 'application/pdf'],
    ['bundle.zip', 'application/zip'],
    ['data.gz', 'application/gzip'],
    ['data.tgz', 'application/gzip'],
    ['module.wasm', 'application/wasm'],
    ['sound.wav', 'audio/wav'],
    ['sound.mp3', 'audio/mpeg'],
    ['sound.ogg', 'audio/ogg'],
    ['clip.mp4', 'video/mp4'],
    ['font.woff', 'font/woff'],
    ['font.woff2', 'font/woff2'],
    ['font.ttf', 'font/ttf'],
    ['font.otf', 'font/otf'],
  ])('maps %s to %s', (path, type) => {
    expect(mimeTypeFor(path)).toBe(type);
  });

  it('ignores the case of the extension', () => {
    expect(mimeTypeFor('README.MD')).toBe('text/markdown');
    expect(mimeTypeFor('Photo.JpEg')).toBe('image/jpeg');
  });

  it('uses the last extension of the last path segment', () => {
    expect(mimeTypeFor('skills/code-review/references/checklist.md')).toBe('text/markdown');
    expect(mimeTypeFor('assets/archive.tar.gz')).toBe('application/gzip');
    expect(mimeTypeFor('v1.2/Makefile')).toBeUndefined();
    expect(mimeTypeFor('scripts\\windows\\run.sh')).toBe('text/x-shellscript');
  });

  it('answers undefined for unknown extensions, dotfiles and names without an extension', () => {
    expect(mimeTypeFor('data.parquet')).toBeUndefined();
    expect(mimeTypeFor('.env')).toBeUndefined();
    expect(mimeTypeFor('dir/.bashrc')).toBeUndefined();
    expect(mimeTypeFor('LICENSE')).toBeUndefined();
    expect(mimeTypeFor('trailing.')).toBeUndefined();
    expect(mimeTypeFor('')).toBeUndefined();
  });

  it('does not answer for inherited object keys', () => {
    expect(mimeTypeFor('x.constructor')).toBeUndefined();
    expect(mimeTypeFor('x.__proto__')).toBeUndefined();
  });
});

describe('isProbablyText', () => {
  const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('accepts ASCII, multi-byte UTF-8 and a BOM', () => {
    expect(isProbablyText(utf8('# Title\n\nbody\n'))).toBe(true);
    expect(isProbablyText(utf8('naïve café — 日本語 😀'))).toBe(true);
    expect(isProbablyText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toBe(true);
  });

  it('accepts an empty file', () => {
    expect(isProbablyText(new Uint8Array())).toBe(true);
  });

  it('rejects a NUL byte in the first 8 KiB', () => {
    expect(isProbablyText(new Uint8Array([0x68, 0x00, 0x69]))).toBe(false);
    const late = new Uint8Array(8 * 1024).fill(0x61);
    late[8 * 1024 - 1] = 0;
    expect(isProbablyText(late)).toBe(false);
  });

  it('ignores a NUL byte after the first 8 KiB', () => {
    const bytes = new Uint8Array(8 * 1024 + 10).fill(0x61);
    bytes[8 * 1024 + 5] = 0;
    expect(isProbablyText(bytes)).toBe(true);
  });

  it('rejects invalid UTF-8: Latin-1, a lone continuation byte, a truncated sequence', () => {
    expect(isProbablyText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBe(false);
    expect(isProbablyText(new Uint8Array([0x80]))).toBe(false);
    expect(isProbablyText(new Uint8Array([0xe6, 0x97]))).toBe(false);
  });

  it('rejects the start of a PNG file', () => {
    expect(isProbablyText(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]))).toBe(false);
  });

  it('accepts any string without NUL encoded as UTF-8 (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        expect(isProbablyText(utf8(text.replaceAll('\0', '')))).toBe(true);
      }),
    );
  });
});
