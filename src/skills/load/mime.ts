/**
 * MIME types for the files of a skill, and a cheap text/binary sniff.
 *
 * The table is deliberately small: it covers what skill folders hold
 * (Markdown, source code, data files, images, fonts, archives) and answers
 * `undefined` for anything else, so the caller decides the fallback
 * (`text/plain` or `application/octet-stream`) from the bytes. No `node:*`
 * import and no MIME database dependency: a skills server has no use for the
 * other two thousand types.
 */

// Types are the IANA-registered ones where one exists. Source code has no
// registered types, so those use the `text/x-*` names of freedesktop.org's
// shared-mime-info, which is what `file --mime-type` and most editors report.
// Shell scripts get `text/x-shellscript` (shared-mime-info) rather than the
// older `application/x-sh`: a `text/` type tells an MCP client it may show the
// file as text, and the script is text.
const BY_EXTENSION: Readonly<Record<string, string>> = {
  // Documents and data
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  xml: 'application/xml',
  // XML Schema and XSLT have no type of their own in common use but XML's.
  xsd: 'application/xml',
  xsl: 'application/xslt+xml',
  xslt: 'application/xslt+xml',
  ipynb: 'application/x-ipynb+json',
  pdf: 'application/pdf',
  // Office documents: the registered OOXML and OpenDocument types, and the legacy binaries.
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  // Source code
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  mts: 'text/x-typescript',
  cts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  rb: 'text/x-ruby',
  go: 'text/x-go',
  rs: 'text/x-rust',
  java: 'text/x-java',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c++',
  cs: 'text/x-csharp',
  kt: 'text/x-kotlin',
  swift: 'text/x-swift',
  php: 'text/x-php',
  ps1: 'text/x-powershell',
  jsx: 'text/javascript',
  tsx: 'text/x-typescript',
  sql: 'application/sql',
  // Images
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/vnd.microsoft.icon',
  // Archives and binaries
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  wasm: 'application/wasm',
  // Audio and video
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  // Fonts
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

/**
 * The MIME type of a file, from the extension of its path (case-insensitive).
 *
 * Use it to label skill files served as resources; `undefined` means "not a
 * type we know", and the caller picks a fallback from the content. A leading
 * dot alone is not an extension, so `.env` and `.bashrc` answer `undefined`;
 * `archive.tar.gz` answers the type of its last extension.
 *
 * @example
 * mimeTypeFor('references/style.md'); // 'text/markdown'
 * mimeTypeFor('scripts/RUN.SH'); // 'text/x-shellscript'
 * mimeTypeFor('Makefile'); // undefined
 */
export function mimeTypeFor(path: string): string | undefined {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const extension = base.slice(dot + 1).toLowerCase();
  return Object.hasOwn(BY_EXTENSION, extension) ? BY_EXTENSION[extension] : undefined;
}

/** How far {@link isProbablyText} looks for a NUL byte (the same window as git's binary check). */
export const NUL_WINDOW = 8 * 1024;

// `fatal: true` makes invalid UTF-8 throw instead of decoding to U+FFFD.
// `ignoreBOM` keeps a leading BOM from being special-cased: it is valid UTF-8.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Whether some bytes look like text: valid UTF-8 throughout, and no NUL byte
 * in the first 8 KiB.
 *
 * Use it to decide between a `text` and a base64 `blob` resource body when
 * the extension says nothing (or says a text type but the file is not one).
 * NUL is valid UTF-8 but never appears in real text files, which is why git
 * and `grep` use it as their binary test; the UTF-8 check then catches
 * Latin-1 files and binaries without NULs early on. An empty file is text.
 */
export function isProbablyText(bytes: Uint8Array): boolean {
  const window = Math.min(bytes.length, NUL_WINDOW);
  for (let i = 0; i < window; i++) {
    if (bytes[i] === 0) return false;
  }
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
