/**
 * README.md and docs/*.md stay true to the code: the README fits on a screen
 * or two, every TypeScript block is a run of lines of a type-checked file in
 * examples/, host configurations parse, every `skillport` command line takes
 * only flags its command accepts, the skill files shown are ones `check`
 * passes, and every relative link reaches a file (and heading) that exists
 * and that the package ships.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { COMMANDS } from '../../src/cli/usage.js';
import { ROOT } from '../_stdio-client.js';
import { runCli } from '../cli/_run.js';
import { anchors, type CodeBlock, codeBlocks, flags, type Invocation, invocations, links, pages, readPage, shellCommands } from './_docs.js';

const all = pages();
const blocks = all.flatMap(codeBlocks);
const readme = readPage('README.md');
const COMMAND_NAMES = Object.keys(COMMANDS);
const where = (block: CodeBlock) => `${block.page}:${block.line}`;

function examples(dir = `${ROOT}examples`): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? examples(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Each flag an invocation names must be one its command accepts. */
function unknownFlags(invocation: Invocation): string[] {
  const accepted = Object.keys(COMMANDS[invocation.command as keyof typeof COMMANDS].options);
  return flags(invocation)
    .filter((flag) => !['-h', '--help', '-v', '--version'].includes(flag) && !accepted.includes(flag.replace(/^--/, '')))
    .map((flag) => `${invocation.source}: skillport ${invocation.command} ${flag}`);
}

/** The servers of a host configuration (`mcpServers`, VS Code's `servers`). */
type Servers = Record<string, { command?: string; args?: string[] }>;

describe('README.md', () => {
  it('starts with the command that serves and the command that tests', () => {
    const first = blocks.find((block) => block.page === 'README.md' && block.lang === 'sh');
    const lines = first?.body.trim().split('\n') ?? [];
    expect(lines[0]).toMatch(/^npm ci && node bin\/skillport\.js serve /);
    expect(lines[1]).toMatch(/^npm ci && npm test /);
  });

  it('stays a page read once: under 300 lines', () => {
    expect(readme.text.split('\n').length).toBeLessThan(300);
  });

  it('has a table of contents that reaches every section', () => {
    const sections = [...readme.text.matchAll(/^## (.+)$/gm)].map((m) => m[1] ?? '');
    const contents = readme.text.slice(0, readme.text.indexOf('\n## '));
    for (const section of sections) expect(contents, section).toContain(`](#${[...anchors(`## ${section}`)][0]})`);
  });

  it('connects every host the issue names', () => {
    for (const host of ['Claude Code', 'Claude Desktop', 'VS Code', 'Cursor', 'Windsurf', 'Codex', 'Gemini CLI', 'ChatGPT']) {
      expect(readme.text, host).toMatch(new RegExp(`^\\| ${host} \\|`, 'm'));
    }
    expect(readme.text).toMatch(/claude mcp add skillport -- node \/path\/to\/skillport\/bin\/skillport\.js serve /);
  });
});

describe('code blocks of README.md and docs/', () => {
  it('finds blocks of every kind it checks', () => {
    for (const lang of ['ts', 'json', 'toml', 'sh', 'yaml', 'markdown'])
      expect(
        blocks.some((block) => block.lang === lang),
        lang,
      ).toBe(true);
  });

  it('shows TypeScript only as runs of lines of a type-checked file in examples/', () => {
    const files = examples().map((file) => readFileSync(file, 'utf8').split('\n'));
    const strays = blocks
      .filter((block) => block.lang === 'ts')
      .filter((block) => {
        const lines = block.body.replace(/\n$/, '').split('\n');
        return !files.some((file) => file.some((_, start) => lines.every((line, k) => file[start + k] === line)));
      });
    expect(strays.map(where)).toEqual([]);
  });

  it.each(['quick-start.ts', 'skills-server.ts', 'long-task.ts', 'tool.ts', 'resources.ts', 'http/serve.ts'])('shows examples/%s whole', (file) => {
    const example = readFileSync(`${ROOT}examples/${file}`, 'utf8');
    expect(blocks.some((block) => block.lang === 'ts' && block.body === example)).toBe(true);
  });

  it('gives host configurations that parse, run without a published package, and pass serve only its flags', () => {
    const configs = blocks.filter((block) => block.lang === 'json' || block.lang === 'jsonc');
    for (const block of configs) {
      const config = JSON.parse(block.body) as { mcpServers?: Servers; servers?: Servers };
      for (const server of Object.values(config.mcpServers ?? config.servers ?? {})) {
        // skillport is not on the registry yet: `npx -y skillport` is a 404 for whoever pastes it.
        expect(server.command === 'npx' && server.args?.includes('skillport'), where(block)).toBe(false);
        const words = [server.command ?? '', ...(server.args ?? [])];
        expect(invocations(words, COMMAND_NAMES, where(block)).flatMap(unknownFlags)).toEqual([]);
      }
    }
  });

  it('gives Codex configurations of tables and keys whose values parse', () => {
    for (const block of blocks.filter((b) => b.lang === 'toml')) {
      for (const line of block.body.trim().split('\n')) {
        if (/^\[mcp_servers\.[a-z-]+\]$/.test(line)) continue;
        const pair = /^([a-z_]+) = (.+)$/.exec(line);
        expect(pair, `${where(block)}: ${line}`).not.toBeNull();
        const value = JSON.parse(pair?.[2] ?? '') as unknown;
        if (pair?.[1] === 'args') {
          const words = ['node', ...(value as string[])];
          expect(invocations(words, COMMAND_NAMES, where(block)).flatMap(unknownFlags)).toEqual([]);
        }
      }
    }
  });

  it('runs skillport in shell blocks only with commands and flags it has', () => {
    const found = blocks
      .filter((block) => block.lang === 'sh')
      .flatMap((block) => shellCommands(block.body).flatMap((words) => invocations(words, COMMAND_NAMES, where(block))));
    expect(found.length).toBeGreaterThan(10);
    expect(found.flatMap(unknownFlags)).toEqual([]);
  });

  it('gives YAML that parses', () => {
    for (const block of blocks.filter((b) => b.lang === 'yaml')) {
      const errors = parseAllDocuments(block.body).flatMap((document) => ('errors' in document ? document.errors : []));
      expect(errors.map(String), where(block)).toEqual([]);
    }
  });
});

describe('skill and prompt files shown', () => {
  const folder = mkdtempSync(join(tmpdir(), 'skillport-docs-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  // A Markdown block whose first line names its file (`<!-- my-skills/x/SKILL.md -->`) is that file.
  const files = blocks
    .filter((block) => block.lang === 'markdown')
    .map((block) => ({ block, name: /^<!-- (\S+) -->\n/.exec(block.body)?.[1] }))
    .filter((file): file is { block: CodeBlock; name: string } => file.name !== undefined);

  it('are files check passes and get renders', async () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const { block, name } of files) {
      const path = join(folder, name.replace(/^my-skills\//, ''));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, block.body.replace(/^.*\n/, ''));
    }
    const check = await runCli('check', folder);
    expect(check.stdout + check.stderr).not.toMatch(/: error: /);
    expect(check.code).toBe(0);
    const listing = await runCli('list', folder);
    expect(listing.stdout).toMatch(/code-review/);
    expect(listing.stdout).toMatch(/fix-issue/);
    expect(listing.stdout).toMatch(/new-component/);
    const got = await runCli('get', 'code-review', '--dir', folder, '--arg', 'language=go');
    expect(got.stdout).toMatch(/Review this go change/);
  });
});

describe('links of README.md and docs/', () => {
  const packageJson = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { files: string[] };
  /** Whether the published package holds a file: npm always packs the README, licence and package.json. */
  const shipped = (path: string) =>
    ['README.md', 'LICENSE', 'package.json'].includes(path) || packageJson.files.some((entry) => path === entry || path.startsWith(`${entry}/`));
  const targets = all.flatMap((page) =>
    links(page)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => {
        const [file = '', anchor] = target.split('#');
        return { page, target, path: file === '' ? page.path : normalize(join(dirname(page.path), file)), anchor };
      }),
  );

  it('finds links to check', () => {
    expect(targets.length).toBeGreaterThan(50);
  });

  it('points every relative link at a file that exists, and at a heading it has', () => {
    const broken = targets.filter(({ path, anchor }) => {
      if (!existsSync(`${ROOT}${path}`)) return true;
      return anchor !== undefined && path.endsWith('.md') && !anchors(readFileSync(`${ROOT}${path}`, 'utf8')).has(anchor);
    });
    expect(broken.map(({ page, target }) => `${page.path}: ${target}`)).toEqual([]);
  });

  it('points only at files the package ships', () => {
    const missing = targets.filter(({ path }) => !shipped(path)).map(({ page, target }) => `${page.path}: ${target}`);
    expect(missing).toEqual([]);
  });
});

describe('docs/cli.md', () => {
  const cli = readPage('docs/cli.md').text;
  it.each(Object.entries(COMMANDS))('names every option of %s', (_name, command) => {
    for (const option of Object.keys(command.options)) expect(cli, option).toMatch(new RegExp(`--${option}(?![a-z-])`));
  });
});
