/**
 * The layering of DESIGN.md, enforced: each layer imports only the layers
 * below it, the core knows no revision and no Node built-in, and a revision
 * folder imports only its declared base revision. util/ is the floor: every
 * layer may use it, and it uses nothing of ours.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Revision } from '../../src/protocol/index.js';
import { LEGACY_VERSIONS, MODERN_VERSIONS, modernRevision, negotiateLegacy } from '../../src/protocol/revisions.js';
import { ROOT } from '../_stdio-client.js';

const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

interface Import {
  file: string;
  specifier: string;
  /** Path of the target relative to src/, or the bare specifier for packages and built-ins. */
  target: string;
}

/** A module's text without its comments (and anything after `//` on a line): what the rules read as code. */
function codeOf(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
}

function imports(src = SRC): Import[] {
  return files(src).flatMap((path) => {
    // Comments may show import lines as examples; only code counts.
    const text = readFileSync(path, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    const found = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
    const file = relative(src, path);
    return found.map((specifier) => ({
      file,
      specifier,
      target: specifier.startsWith('.') ? relative(src, resolve(dirname(path), specifier)).replace(/\.js$/, '.ts') : specifier,
    }));
  });
}

const ALL = imports();

/**
 * The import cycles among `edges`, one per back edge of a depth-first walk
 * (none exactly when there is no cycle), each as `a.ts -> b.ts -> a.ts`.
 * Relative imports only, type-only ones included: a cycle of types is still
 * two modules that cannot be understood, moved or tested one without the other.
 */
function cycles(edges: readonly Pick<Import, 'file' | 'specifier' | 'target'>[]): string[] {
  const graph = new Map<string, string[]>();
  for (const { file, specifier, target } of edges) {
    if (!specifier.startsWith('.')) continue;
    graph.set(file, [...(graph.get(file) ?? []), target]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const found: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' -> '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/** Every revision served. */
const REVISIONS: readonly Revision[] = [...LEGACY_VERSIONS.map(negotiateLegacy), ...MODERN_VERSIONS.map((version) => modernRevision(version) as Revision)];

/**
 * Every MCP method name of the revisions served, requests and notifications of
 * both sides (the official schemas' `method` constants, and the Skills
 * extension's, SEP-2640), with whatever the registries serve besides.
 */
const METHOD_NAMES: ReadonlySet<string> = new Set([
  ...['initialize', 'ping', 'server/discover', 'logging/setLevel', 'completion/complete'],
  ...['prompts/list', 'prompts/get', 'tools/list', 'tools/call', 'subscriptions/listen'],
  ...['resources/list', 'resources/templates/list', 'resources/read', 'resources/subscribe', 'resources/unsubscribe'],
  ...['skills/list', 'skills/get', 'resources/directory/read'],
  ...['tasks/get', 'tasks/list', 'tasks/result', 'tasks/cancel'],
  ...['elicitation/create', 'sampling/createMessage', 'roots/list'],
  ...['notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'notifications/message'],
  ...['notifications/prompts/list_changed', 'notifications/tools/list_changed', 'notifications/resources/list_changed'],
  ...['notifications/resources/updated', 'notifications/roots/list_changed', 'notifications/elicitation/complete'],
  ...['notifications/subscriptions/acknowledged', 'notifications/tasks/status'],
  ...REVISIONS.flatMap((revision) => [...revision.methods.keys()]),
]);

/**
 * The public library API names a question for the client by its method
 * (`ctx.input(key, { method: 'elicitation/create', ... })`, core/input.ts
 * `InputRequest`, as docs/library.md teaches): users write these names in their
 * own code, so the core keeps them where it defines them and where it asks
 * as a handler author would (a prompt's missing arguments), and nowhere else.
 */
const PUBLIC_METHOD_NAMES: Record<string, readonly string[]> = {
  'core/input.ts': ['elicitation/create', 'sampling/createMessage', 'roots/list'],
  'core/prompt-arguments.ts': ['elicitation/create'],
  'core/elicitation.ts': ['elicitation/create'],
};

/**
 * The string literals of a module's code, comments left out: quoted strings
 * and template literals (a template's text whole, placeholders and all).
 */
function stringLiterals(code: string): string[] {
  const found: string[] = [];
  /** Where what starts at `from` ends: after `close`, or at the end of the code. */
  const after = (close: string, from: number): number => (code.indexOf(close, from) === -1 ? code.length : code.indexOf(close, from) + close.length);
  let at = 0;
  while (at < code.length) {
    const char = code[at] as string;
    if (code.startsWith('//', at)) at = after('\n', at);
    else if (code.startsWith('/*', at)) at = after('*/', at + 2);
    else if (char === "'" || char === '"' || char === '`') {
      let end = at + 1;
      while (end < code.length && code[end] !== char) end += code[end] === '\\' ? 2 : 1;
      found.push(code.slice(at + 1, end));
      at = end + 1;
    } else at++;
  }
  return found;
}

/** The rank of each part of `skills/`: a part may import its own rank and below. */
const SKILLS_RANK: Record<string, number> = { load: 0, formats: 0, catalogue: 1, tools: 2, install: 2, publish: 2, page: 2, '': 3, git: 4, remote: 4 };

/** A file's part of `skills/` by rank, undefined outside skills/ or in a part not ranked yet. */
function skillsRank(path: string): number | undefined {
  const parts = path.split('/');
  return parts[0] === 'skills' ? SKILLS_RANK[parts.length > 2 ? (parts[1] as string) : ''] : undefined;
}

/** The imports between parts of `skills/` that go up the order, as `from -> to`. */
function skillsOrderBreaks(edges: readonly Import[]): string[] {
  return edges
    .filter(({ file, target }) => {
      const [from, to] = [skillsRank(file), skillsRank(target)];
      return from !== undefined && to !== undefined && to > from;
    })
    .map(({ file, target }) => `${file} -> ${target}`);
}

const REVISION_FOLDER = /^rev\d{4}-\d{2}-\d{2}$/;

/** Base revision each revision folder may import. */
const BASE: Record<string, string | undefined> = {
  'rev2025-06-18': undefined,
  'rev2025-11-25': 'rev2025-06-18',
  'rev2026-07-28': 'rev2025-11-25',
};

function allowed(file: string, target: string): boolean {
  const [layer] = file.split('/');
  if (target === 'yaml') return layer === 'skills';
  // The catalogue page's Markdown, loaded with the first skill it shows.
  if (target === 'markdown-it') return file === 'skills/page/markdown.ts';
  // JWT checks, loaded only by the OAuth resource server.
  if (target === 'jose') return file.startsWith('transport/http/auth/');
  // The Redis client, imported on first use by the one module that speaks to Redis.
  if (target === 'redis') return file === 'transport/redis.ts';
  // The JSON Schema validator, loaded by tool definitions on first use.
  if (target === '@cfworker/json-schema') return file === 'core/tool-schema.ts';
  if (target.startsWith('node:')) {
    // No Node built-in in the protocol-neutral layers; the skills layer names its own.
    // A git source runs the git program and finds the user's cache folder.
    if (file.startsWith('skills/git/') && ['node:child_process', 'node:os'].includes(target)) return true;
    // The discovery index's archives are gzipped (skills/publish/tar.ts).
    if (file === 'skills/publish/tar.ts' && target === 'node:zlib') return true;
    // A discovery index source inflates archives and finds the user's cache folder.
    if (file.startsWith('skills/remote/') && ['node:zlib', 'node:os'].includes(target)) return true;
    if (layer === 'skills') return ['node:fs', 'node:fs/promises', 'node:path', 'node:crypto'].includes(target);
    // util/ is below the core, so it is as free of Node as the core is.
    return !['core', 'jsonrpc', 'protocol', 'server', 'util'].includes(layer as string);
  }
  if (!target.endsWith('.ts')) return false;
  const [to] = target.split('/');
  // The generic helpers: anyone may use them; they stand alone, importing nothing of ours.
  if (to === 'util') return layer !== 'util';
  if (layer === 'util') return false;
  const sameFolder = dirname(file) === dirname(target);
  switch (layer) {
    case 'jsonrpc':
      return to === 'jsonrpc';
    case 'core':
      return to === 'core' || to === 'jsonrpc';
    case 'protocol': {
      const folder = file.split('/')[1] as string;
      // Only the list of revisions reaches into their folders; the rest of the layer goes through it.
      if (!REVISION_FOLDER.test(folder))
        return (
          ['core', 'jsonrpc'].includes(to as string) ||
          (to === 'protocol' && (!REVISION_FOLDER.test(target.split('/')[1] as string) || file === 'protocol/revisions.ts'))
        );
      if (to !== 'protocol') return to === 'core' || to === 'jsonrpc';
      const targetFolder = target.split('/')[1] as string;
      return targetFolder === folder || targetFolder === 'revision.ts' || targetFolder === BASE[folder];
    }
    case 'server':
      return to === 'server' || to === 'core' || to === 'jsonrpc' || target === 'protocol/index.ts';
    case 'telemetry':
      // Metrics and traces over the server's observers (server/observer.ts): below the transports, which record into them.
      return to === 'telemetry' || to === 'jsonrpc' || target === 'server/index.ts';
    case 'transport':
      // A transport's own folder, or a module at the layer's root that every transport shares
      // (lifecycle.ts); never another transport's folder. A transport's folder may have folders of its own (http/auth/).
      return (
        sameFolder ||
        (to === 'transport' && target.split('/')[1] === file.split('/')[1]) ||
        dirname(target) === 'transport' ||
        to === 'server' ||
        to === 'jsonrpc' ||
        target === 'protocol/index.ts' ||
        target === 'server/index.ts' ||
        to === 'telemetry'
      );
    case 'skills':
      // The skills provider builds on the core only; it knows no revision and no transport.
      return to === 'skills' || to === 'core' || to === 'jsonrpc' || ['node:fs', 'node:fs/promises', 'node:path', 'node:crypto'].includes(target);
    case 'cli':
      return to === 'cli' || ['index.ts', 'stdio.ts', 'http.ts', 'skills.ts', 'telemetry.ts'].includes(target);
    default:
      // Entry files (index.ts, stdio.ts) re-export the layers.
      return true;
  }
}

describe('layering', () => {
  it('finds imports in every layer (sanity check of the scan)', () => {
    const layers = new Set(ALL.map((i) => i.file.split('/')[0]));
    for (const layer of ['core', 'protocol', 'server', 'telemetry', 'transport', 'skills', 'cli']) expect(layers).toContain(layer);
  });

  it('has no import that crosses the layering', () => {
    const offenders = ALL.filter((i) => !allowed(i.file, i.target)).map((i) => `${i.file} -> ${i.specifier}`);
    expect(offenders).toEqual([]);
  });

  it('has no import cycle anywhere in src/', () => {
    expect(cycles(ALL)).toEqual([]);
  });

  it('finds a cycle through type-only imports, and none in a chain', () => {
    const edge = (file: string, target: string) => ({ file, specifier: `./${target}`, target });
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('c.ts', 'a.ts')])).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'c.ts'), edge('a.ts', 'c.ts')])).toEqual([]);
  });

  it('flags a revision importing a revision other than its base', () => {
    expect(allowed('protocol/rev2026-07-28/index.ts', 'protocol/rev2025-06-18/index.ts')).toBe(false);
    expect(allowed('protocol/rev2025-06-18/index.ts', 'protocol/rev2025-11-25/index.ts')).toBe(false);
    expect(allowed('core/engine.ts', 'protocol/index.ts')).toBe(false);
    expect(allowed('core/engine.ts', 'node:fs')).toBe(false);
    expect(allowed('transport/stdio/serve-stdio.ts', 'core/context.ts')).toBe(false);
    expect(allowed('transport/stdio/serve-stdio.ts', 'transport/http/handler.ts')).toBe(false);
    expect(allowed('transport/http/serve.ts', 'transport/stdio/serve-stdio.ts')).toBe(false);
    expect(allowed('transport/stdio/serve-stdio.ts', 'transport/lifecycle.ts')).toBe(true);
    expect(allowed('skills/provider.ts', 'protocol/index.ts')).toBe(false);
    expect(allowed('cli/main.ts', 'skills/catalogue.ts')).toBe(false);
    expect(allowed('transport/http/git-hook.ts', 'util/debounce.ts')).toBe(true);
    expect(allowed('core/paginate.ts', 'util/digest.ts')).toBe(true);
    expect(allowed('util/trim.ts', 'core/model.ts')).toBe(false);
    expect(allowed('util/trim.ts', 'util/digest.ts')).toBe(false);
    expect(allowed('util/debounce.ts', 'node:timers')).toBe(false);
    expect(allowed('telemetry/listener.ts', 'transport/http/origin.ts')).toBe(false);
    expect(allowed('transport/http/handler.ts', 'telemetry/registry.ts')).toBe(true);
  });

  it('lets only the list of revisions import a revision folder, and only the resolver read the 2026 _meta', () => {
    expect(allowed('protocol/resolve.ts', 'protocol/rev2026-07-28/index.ts')).toBe(false);
    expect(allowed('protocol/revisions.ts', 'protocol/rev2026-07-28/index.ts')).toBe(true);
    const readers = files(SRC)
      .filter((path) => /(?<!function )\breadRequestMeta\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(readers).toEqual(['protocol/resolve.ts']);
  });

  it('keeps revision strings out of the code of the core, the server and the transports', () => {
    const offenders = files(SRC)
      .filter((path) => /\/(util|core|jsonrpc|server|transport|skills)\//.test(path))
      .filter((path) => {
        return /['"`]\d{4}-\d{2}-\d{2}/.test(codeOf(path));
      })
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });

  it('gives the HTTP handler one public seam: no hidden path, both adapters call its reply', () => {
    // Issue 21: the node adapter once reached the handler through a hidden symbol. Now
    // HttpHandler.reply is the one entry: web.ts makes the handler's fetch over it, node.ts
    // calls it (while fetch is the handler's own: web.ts replyOf), and neither imports more.
    const http = files(join(SRC, 'transport/http'));
    const hidden = http.filter((path) => /\bSymbol\(|\bdefineProperty\(/.test(codeOf(path))).map((path) => relative(SRC, path));
    expect(hidden).toEqual([]);
    for (const adapter of ['transport/http/node.ts', 'transport/http/web.ts']) {
      const reached = ALL.filter((i) => i.file === adapter && i.target.startsWith('transport/http/')).map((i) => i.target);
      const allowed = ['request.ts', 'web.ts', 'options.ts', 'errors.ts', 'node-body.ts', 'node-fetch.ts', 'node-reply.ts'].map(
        (name) => `transport/http/${name}`,
      );
      expect(reached.filter((target) => !allowed.includes(target))).toEqual([]);
    }
    expect(codeOf(join(SRC, 'transport/http/node.ts'))).toMatch(/\breplyOf\(handler\)/);
    expect(codeOf(join(SRC, 'transport/http/web.ts'))).toMatch(/\breply\(adapted\)/);
  });

  it('keeps the parts of the skills layer in their order: load, catalogue, tools, the root, git', () => {
    // A part imports only parts at its own rank or below (ARCHITECTURE.md, "The skills
    // folder"): reading a skill knows no catalogue, the catalogue no tool, and only a git
    // source, which swaps what the root serves, sits above the root.
    expect(skillsOrderBreaks(ALL)).toEqual([]);
    // A new part gets its rank here, and its place in the map, before it is used.
    const unranked = files(join(SRC, 'skills'))
      .map((path) => relative(SRC, path))
      .filter((file) => skillsRank(file) === undefined);
    expect(unranked).toEqual([]);
    expect(skillsOrderBreaks([{ file: 'skills/load/a.ts', specifier: '../catalogue/b.js', target: 'skills/catalogue/b.ts' }])).toEqual([
      'skills/load/a.ts -> skills/catalogue/b.ts',
    ]);
  });

  it('keeps `process` out of the skills layer but for the git modules, whose uses ARCHITECTURE.md lists', () => {
    // A library caller's defaults (source.ts), the workspace's owner and the liveness probe
    // (workspace.ts), and the kill of git's own process group (run-git.ts); nothing else.
    const touching = files(join(SRC, 'skills'))
      .filter((path) => /\bprocess\./.test(codeOf(path)))
      .map((path) => relative(SRC, path))
      .sort();
    expect(touching).toEqual(['skills/git/run-git.ts', 'skills/git/source.ts', 'skills/git/workspace.ts']);
  });

  it('keeps MCP method names out of the code of the transports and the core', () => {
    // A transport schedules by the resolver's lane and the core answers in neutral terms
    // (issue 21): which message is which method is the protocol layer's to know.
    const offenders = files(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => /^(transport|core)\//.test(file))
      .flatMap((file) =>
        stringLiterals(readFileSync(join(SRC, file), 'utf8'))
          .filter((text) => METHOD_NAMES.has(text) && !PUBLIC_METHOD_NAMES[file]?.includes(text))
          .map((text) => `${file}: '${text}'`),
      );
    expect(offenders).toEqual([]);
  });

  it('finds method names in string literals, not in comments', () => {
    const code = `// 'initialize' in a comment\n/* 'prompts/get' */ const a = 'subscriptions/listen'; const b = "notifications/cancelled"; const c = \`ping\`;`;
    expect(stringLiterals(code).filter((text) => METHOD_NAMES.has(text))).toEqual(['subscriptions/listen', 'notifications/cancelled', 'ping']);
    expect(stringLiterals(`const url = 'http://x'; const m = 'prompts/get';`)).toEqual(['http://x', 'prompts/get']);
  });

  it('keeps caches keyed by identity to the encoded values and the places that own their keys', () => {
    // An identity cache across layers is a contract no type shows (issue 11):
    // values shared between requests are Encoded (jsonrpc/encoded.ts) and carry
    // what is derived from them. Each entry below says why it may hold one.
    const owners: Record<string, string> = {
      'jsonrpc/encoded.ts': 'the derived forms of one encoded value, by the deriving function',
      'protocol/rev2026-07-28/index.ts': "an encoded result's envelope per server, itself kept with the result",
      'core/paginate.ts': "each list's version (its content digest), by the list: never changed once handed over, collected with it",
      'core/audience.ts': "each audience set's view of a list or an item, kept with it as the pager's versions are",
    };
    const holders = files(SRC)
      .filter((path) => /\bnew Weak(Map|Set)\b/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path))
      .sort();
    expect(holders).toEqual(Object.keys(owners).sort());
  });
});
