/**
 * The commands, the options each one accepts and their help texts, in one
 * table: the parser checks flags against the same lists the help prints, so
 * the two cannot disagree.
 */
import { SUPPORTED_VERSIONS } from '../index.js';
import { LABELS, type OptionName } from './option-labels.js';

export type { OptionName } from './option-labels.js';

interface CommandSpec {
  /** What follows `skillport` in the usage line. */
  usage: string;
  /** One line for skillport's help. */
  brief: string;
  /** What the command does, for its own help. */
  summary: string;
  /** Whether positionals after the command are folders, the same as `--dir`. */
  positionalFolders: boolean;
  /** The options the command accepts (besides --help and --version), with their help. */
  options: Partial<Record<OptionName, string>>;
  examples: readonly string[];
}

const DIR = 'a skills folder or plugin marketplace (repeatable; default: the bundled skills), or one git+https://HOST/REPO.git#REF:DIR or index URL';
const CACHE = 'with a git or index source: where checkouts go (default: $XDG_CACHE_HOME/skillport/git or /index, else under ~/.cache/skillport/)';
const INDEX_ORIGIN = "with an index source: another origin its skills' files may come from (repeatable; default: the index's only)";
const INDEX_OPTIONS = { 'index-origin': INDEX_ORIGIN, 'index-insecure-http': 'with an index source: read plain http beyond this machine' } as const;
const PREFIX = "prefix of shared reference prompts (default: the first folder's name)";

export const COMMANDS = {
  serve: {
    brief: 'Serve skills folders as MCP prompts, resources and tools (stdio or HTTP)',
    usage: 'serve [DIR...] [options]',
    summary: 'Serve skills folders as MCP prompts, resources and tools (load_skill, read_skill_file), over stdio or Streamable HTTP.',
    positionalFolders: true,
    options: {
      dir: `${DIR}; the same as a positional DIR`,
      watch: 'reload when files change and notify clients',
      'no-tools': 'serve no tools: leave out load_skill and read_skill_file, which reach hosts that only call tools',
      prefix: PREFIX,
      name: 'server name sent to clients (default: skillport)',
      title: 'server title clients display (default: the --name, else skillport)',
      instructions: 'instructions sent to clients on initialize and discover ("" sends none)',
      'log-level': 'debug | info | warn | error | silent (default: info), to stderr; debug adds an entry per request',
      'log-format': 'text | json (default: text): json writes one object per line with time, level and msg',
      'page-size': 'items per page of list results (default: 50)',
      http: 'Streamable HTTP instead of stdio, endpoint /mcp (a bare PORT means 127.0.0.1)',
      'auth-token': 'with --http: require this bearer token (or env SKILLPORT_AUTH_TOKEN)',
      'auth-issuer': 'with --http: require OAuth access tokens from this authorization server (its issuer URL)',
      'auth-audience': 'with --auth-issuer: the audience tokens must name (default: the endpoint URL)',
      'auth-scope': 'with --auth-issuer: a scope every token must grant (repeatable)',
      'auth-claim': 'with --auth-issuer: the token claim (e.g. groups) whose values are its audiences (default: its scopes)',
      'auth-introspection': 'with --auth-issuer: check opaque tokens at this RFC 7662 endpoint',
      'auth-client-id': "with --auth-introspection: this server's client id there",
      'auth-client-secret-env': 'with --auth-introspection: the environment variable holding its client secret',
      'allow-origin': 'with --http: an Origin browsers may call from (repeatable; replaces the localhost default; * allows any)',
      'allow-host': 'with --http: a Host name accepted (repeatable; replaces the localhost default; * allows any)',
      'pull-interval':
        'with a git or index source: fetch every S seconds and serve what is new (default: 60; 0: no polling, so it is fetched again only on a push webhook, POST /hooks/git, or when another replica sharing --redis found a change)',
      'cache-dir': CACHE,
      ...INDEX_OPTIONS,
      'hook-secret-env': 'with --http and a git source: the environment variable holding the secret of POST /hooks/git (default: SKILLPORT_HOOK_SECRET)',
      redis: 'with --http: share legacy sessions and catalogue changes with other replicas through this Redis (or env SKILLPORT_REDIS_URL)',
      'no-page': 'with --http: serve no catalogue page at / (browsers get it by default: the skills each caller may use, and how to connect)',
      'trust-proxy': 'with --http: count the per-client stream cap by the last X-Forwarded-For address (only behind a proxy every request passes)',
      'no-index':
        'with --http: do not publish the Agent Skills discovery index (GET /.well-known/agent-skills/index.json and its SKILL.md files and .tar.gz archives, behind the same token or OAuth as /mcp)',
      metrics: 'serve Prometheus metrics at GET /metrics on this address of its own (a bare PORT means 127.0.0.1); off by default',
    },
    examples: [
      'skillport serve ./skills --watch',
      'skillport serve ./skills --http 127.0.0.1:3000 --name work-skills',
      'skillport serve git+https://example.com/team/skills.git#main:skills --http 3000',
      'skillport serve https://skills.example.com --http 3000',
      'skillport serve ./skills --http 127.0.0.1:3000 --allow-host skills.example.com --auth-issuer https://login.example.com/ --auth-scope skills:read',
      'skillport serve ./skills --http 3000 --metrics 9464',
    ],
  },
  list: {
    brief: 'List the prompts the folders yield',
    usage: 'list [DIR...] [options]',
    summary: 'List the prompts the folders yield, with their arguments (optional ones in brackets).',
    positionalFolders: true,
    options: { dir: `${DIR}; the same as a positional DIR`, prefix: PREFIX, json: 'JSON output', 'cache-dir': CACHE, ...INDEX_OPTIONS },
    examples: ['skillport list ./skills', 'skillport list ./team-skills ./my-skills --json', 'skillport list https://skills.example.com'],
  },
  get: {
    brief: "Print a prompt's text",
    usage: 'get NAME [--arg NAME=VALUE]... [--dir DIR]... [options]',
    summary: "Print a prompt's text, rendered with its arguments.",
    positionalFolders: false,
    options: {
      dir: DIR,
      arg: "a value for one of the prompt's arguments (repeatable)",
      prefix: PREFIX,
      json: 'the whole prompts/get result as JSON',
      'cache-dir': CACHE,
      ...INDEX_OPTIONS,
    },
    examples: ['skillport get greeting --dir ./skills --arg who=Ada'],
  },
  complete: {
    brief: 'Print completions for a prompt argument',
    usage: 'complete NAME ARG [VALUE] [--arg NAME=VALUE]... [--dir DIR]... [options]',
    summary: 'Print the completions of argument ARG of prompt NAME for a partial VALUE.',
    positionalFolders: false,
    options: {
      dir: DIR,
      arg: 'a value of another argument, as context (repeatable)',
      prefix: PREFIX,
      json: 'the completion result as JSON',
      'cache-dir': CACHE,
      ...INDEX_OPTIONS,
    },
    examples: ['skillport complete greeting language ge --dir ./skills'],
  },
  check: {
    brief: 'Lint skills folders; exit 1 on errors',
    usage: 'check [DIR...] [options]',
    summary: 'Lint skills folders: every finding as path:line: severity: message (code), sorted, then a summary. Exit 1 on errors.',
    positionalFolders: true,
    options: {
      dir: `${DIR}; the same as a positional DIR`,
      prefix: PREFIX,
      strict: 'warnings fail too',
      json: 'JSON output',
      'cache-dir': CACHE,
      ...INDEX_OPTIONS,
    },
    examples: ['skillport check ./skills --strict'],
  },
  install: {
    brief: 'Write skills to disk, in the folder a host reads',
    usage: 'install SOURCE [NAME...] --to DIR [options]',
    summary:
      'Write the skills NAME... of SOURCE (every skill when none is named) as DIR/<name>/, the layout hosts read, each file checked against its SHA-256 first. SOURCE is a skills folder, a git repository, a discovery index URL (https://HOST), or a running MCP server that serves the Skills extension (mcp+https://HOST/mcp), whose files are checked against its manifests. A skill already in DIR is replaced only with --force, and the old folder stays until the new one is complete.',
    positionalFolders: false,
    options: {
      to: 'the folder to write to, or a host whose project folder to use: claude (.claude/skills), copilot or vscode (.github/skills), cursor (.cursor/skills), codex or agents (.agents/skills), gemini (.gemini/skills)',
      force: 'replace skills that are already there',
      'token-env': 'with an MCP source: the environment variable holding the bearer token to send',
      json: 'JSON output: each skill with its status, files and bytes',
      'cache-dir': CACHE,
    },
    examples: [
      'skillport install ./team-skills pdf-forms --to claude',
      'skillport install git+https://example.com/team/skills.git --to .agents/skills --force',
    ],
  },
  usage: {
    brief: 'Print how often each skill was used, from running servers',
    usage: 'usage URL... [options]',
    summary:
      'Print how often each skill served was used, by surface (prompt, skill, file, load_skill, read_skill_file), read from the metrics endpoints of running servers (serve --metrics); several replicas are summed. Skills never used are listed last.',
    positionalFolders: false,
    options: { json: 'JSON output' },
    examples: ['skillport usage http://127.0.0.1:9464/metrics', 'skillport usage 10.0.0.5:9464 10.0.0.6:9464 --json'],
  },
  help: {
    brief: 'Show the help of skillport or of one command',
    usage: 'help [COMMAND]',
    summary: 'Show the help of skillport or of one command.',
    positionalFolders: false,
    options: {},
    examples: ['skillport help serve'],
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** Help lines are wrapped to fit a terminal of this many columns. */
const COLUMNS = 100;

/** Words of `text` in lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  const indent = ' '.repeat(width + 4);
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${wrap(right, COLUMNS - indent.length).join(`\n${indent}`)}`).join('\n');
}

/** The usage line of a command, or of skillport. */
export function usageLine(command: CommandName | undefined): string {
  return command === undefined ? 'Usage: skillport <command> [options]' : `Usage: skillport ${COMMANDS[command].usage}`;
}

/** The help of one command: its usage, options and examples. */
export function commandHelp(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  const options = Object.entries(spec.options).map(([name, text]) => [LABELS[name as OptionName], text] as const);
  options.push([LABELS.help, 'show this help']);
  const folders = spec.positionalFolders
    ? " Folders are given as DIR or --dir DIR, in any mix and in order: of two skills with one name, the earlier folder's is served."
    : '';
  return `${usageLine(command)}

${wrap(`${spec.summary}${folders}`, COLUMNS).join('\n')}

Options:
${table(options)}

Example${spec.examples.length > 1 ? 's' : ''}:
${spec.examples.map((e) => `  ${e}`).join('\n')}
`;
}

/** The help of skillport: its commands and where to find each one's options. */
export function generalHelp(): string {
  const commands = (Object.keys(COMMANDS) as CommandName[]).map((name) => {
    const usage = COMMANDS[name].usage.replace(/ \[options\]$/, '').replace(/ \[--arg NAME=VALUE\]\.\.\. \[--dir DIR\]\.\.\.$/, '');
    return [usage, COMMANDS[name].brief] as const;
  });
  return `${usageLine(undefined)}

Commands:
${table(commands)}

Every command takes its folders as --dir DIR (repeatable); serve, list and check also take
them as positional DIRs. Without a folder the bundled skills are used. Without a command,
skillport serves.

Options:
${table([
  [LABELS.help, "show this help; skillport COMMAND --help shows a command's"],
  [LABELS.version, 'show the version'],
])}

Run "skillport help COMMAND" for a command's options and an example.

Protocol revisions: ${SUPPORTED_VERSIONS.join(', ')}
`;
}
