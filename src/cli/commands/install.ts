/**
 * `skillport install SOURCE [NAME...] --to DIR`: writes skills from a source
 * to disk as `DIR/<name>/`, the layout hosts read, every file checked against
 * its recorded SHA-256 first (skills/install/). `--to` takes a folder or the
 * name of a host, whose project folder is used.
 */
import { escapeControls } from '../../index.js';
import { chooseByName, chooseSkills, type InstallableSkill, type InstallOutcome, type InstallProgress, installSkills } from '../../skills.js';
import { type Invocation, UsageError } from '../args.js';
import { type CliIo, openCatalogue } from '../context.js';
import { isMcpSource, mcpSkills } from '../mcp-skills.js';
import { printJson, printLine } from '../output.js';

/**
 * Where each host reads a project's skills (relative to the project folder).
 * `agents` is the folder several hosts share (Codex, Cursor, VS Code, Gemini CLI
 * read it); the others are each host's own.
 */
export const HOST_FOLDERS: Readonly<Record<string, string>> = {
  claude: '.claude/skills',
  copilot: '.github/skills',
  vscode: '.github/skills',
  cursor: '.cursor/skills',
  codex: '.agents/skills',
  gemini: '.gemini/skills',
  agents: '.agents/skills',
};

/** The folder `--to` names: a host's folder for a bare host name, else the path as given. */
export function targetFolder(to: string | undefined): string {
  if (to === undefined || to.trim() === '') {
    throw new UsageError(`--to is required: a folder, or one of ${Object.keys(HOST_FOLDERS).join(', ')}`, 'install');
  }
  return Object.hasOwn(HOST_FOLDERS, to) ? (HOST_FOLDERS[to] as string) : to;
}

function kilobytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One line per skill: what became of it. */
function describe(outcome: InstallOutcome): string {
  const where = escapeControls(outcome.dir);
  switch (outcome.status) {
    case 'created':
    case 'replaced':
      return `${outcome.status === 'created' ? 'installed' : 'replaced'} ${escapeControls(outcome.name)} in ${where} (${outcome.files} file${outcome.files === 1 ? '' : 's'}, ${kilobytes(outcome.bytes)})`;
    default:
      return `not installed: ${escapeControls(outcome.name)}: ${escapeControls(outcome.error ?? outcome.status)}`;
  }
}

/** On a terminal, one line kept up to date for installs of more than a few skills. */
function progressLine(io: CliIo, total: number): ((progress: InstallProgress) => void) | undefined {
  if (!io.stderrIsTty || total < 4) return undefined;
  return ({ name, done, bytes }) => {
    const doing = name === '' ? 'done' : escapeControls(name);
    io.stderr.write(`\r\x1b[Kinstalling ${done}/${total} skills, ${kilobytes(bytes)}: ${doing}`);
    if (name === '') io.stderr.write('\r\x1b[K');
  };
}

async function installFrom(skills: readonly InstallableSkill[], values: Invocation['values'], io: CliIo): Promise<number> {
  const target = targetFolder(values.to);
  if (skills.length === 0) throw new Error('this source serves no skills');
  const onProgress = progressLine(io, skills.length);
  const outcomes = await installSkills(skills, target, { force: values.force === true, ...(onProgress ? { onProgress } : {}) });
  const failed = outcomes.filter((o) => o.status === 'exists' || o.status === 'failed');
  if (values.json) printJson(io.stdout, { ok: failed.length === 0, to: target, skills: outcomes });
  else {
    for (const outcome of outcomes) printLine(outcome.status === 'created' || outcome.status === 'replaced' ? io.stdout : io.stderr, describe(outcome));
  }
  return failed.length === 0 ? 0 : 1;
}

/** The bearer token for an MCP source, from the variable --token-env names. */
function tokenOf(values: Invocation['values'], env: Record<string, string | undefined>): string | undefined {
  const variable = values['token-env'];
  if (variable === undefined) return undefined;
  const token = env[variable];
  if (!token) throw new UsageError(`--token-env names ${variable}, which is not set`, 'install');
  return token;
}

export async function install(invocation: Invocation, io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  const { values } = invocation;
  const [source, ...names] = invocation.args;
  if (source === undefined) throw new UsageError('install expects a SOURCE: a skills folder, a git repository or an MCP server (mcp+https://…)', 'install');
  // Checked before the source is fetched: a missing --to should not cost a clone.
  targetFolder(values.to);
  if (isMcpSource(source)) {
    if (values['cache-dir'] !== undefined) throw new UsageError('--cache-dir applies only to a git source', 'install');
    const token = tokenOf(values, env);
    const skills = await mcpSkills({ url: source.slice('mcp+'.length), ...(token !== undefined ? { token } : {}) });
    return installFrom(chooseByName(skills, names), values, io);
  }
  if (values['token-env'] !== undefined) throw new UsageError('--token-env applies only to an MCP source (mcp+https://…)', 'install');
  const opened = await openCatalogue(source, values, env, 'install');
  try {
    return await installFrom(chooseSkills(opened.catalogue, names), values, io);
  } finally {
    await opened.close();
  }
}
