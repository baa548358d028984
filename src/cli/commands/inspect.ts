/**
 * `skillport list`, `get` and `complete`: the served catalogue, as a client
 * would see it, without starting a server.
 */
import { isProtocolError, type Logger, type Prompt } from '../../index.js';
import type { Catalogue } from '../../skills.js';
import { type Invocation, keyValues, UsageError } from '../args.js';
import { type CliIo, commandContext, gitSourceOf, remoteSettings, skillsServer } from '../context.js';
import { emptyWarning, findingsOf, loadFindings, shownIssue } from '../load-report.js';
import { createStderrLogger } from '../logger.js';
import { counted, printJson, printLine, printText } from '../output.js';
import type { CommandName } from '../usage.js';

type Env = Record<string, string | undefined>;

/** Opens the folders, runs `use` on the server, and closes them (a git source's checkout is removed). */
async function withServer<T>(
  folders: readonly string[],
  { values }: Invocation,
  io: CliIo,
  env: Env,
  command: 'list' | 'get' | 'complete',
  use: (opened: Awaited<ReturnType<typeof skillsServer>> & { logger: Logger }) => Promise<T>,
): Promise<T> {
  const logger = createStderrLogger('error', (line) => io.stderr.write(line));
  const git = remoteSettings(gitSourceOf(folders, command), values, env, command);
  const opened = await skillsServer(folders, {
    logger,
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
    git,
  });
  try {
    const empty = emptyWarning(opened.folder.catalogue, folders);
    if (empty !== undefined) printLine(io.stderr, `skillport ${command}: ${empty}`);
    return await use({ ...opened, logger });
  } finally {
    await opened.folder.close();
    opened.server.close();
  }
}

/** Turns a client mistake (unknown prompt, missing argument) into exit code 1 with its message. */
async function guarded(io: CliIo, command: CommandName, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (isProtocolError(error)) {
      printLine(io.stderr, `skillport ${command}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/**
 * For a prompt that is not served: why, when the load left findings about
 * the skill or prompt file of that name (its YAML does not parse, its name is
 * missing); exit 1 then. Undefined when nothing of that name was found at all.
 */
function notServed(name: string, served: readonly Prompt[], catalogue: Catalogue, io: CliIo, command: CommandName): number | undefined {
  if (served.some((p) => p.name === name)) return undefined;
  const found = findingsOf(name, catalogue);
  if (found.length === 0) return undefined;
  const why = found.some((issue) => issue.severity === 'error') ? 'failed to load' : 'is not served';
  printLine(io.stderr, `skillport ${command}: "${name}" ${why}:`);
  for (const issue of found) printLine(io.stderr, `  ${shownIssue(issue)}`);
  return 1;
}

/**
 * Refuses argument names the prompt does not declare. The engine would pass
 * such a value to the prompt, which ignores it, and the user would never learn
 * of the typo. An unknown prompt is left to the engine's own answer.
 */
function requireDeclared(prompt: Prompt | undefined, names: readonly string[], command: CommandName): void {
  if (prompt === undefined) return;
  const declared = (prompt.arguments ?? []).map((a) => a.name);
  const unknown = names.find((name) => !declared.includes(name));
  if (unknown === undefined) return;
  const which = declared.length === 0 ? 'it declares none' : `it declares: ${declared.join(', ')}`;
  throw new UsageError(`"${prompt.name}" has no argument "${unknown}"; ${which}`, command);
}

export function list(invocation: Invocation, io: CliIo, env: Env = {}): Promise<number> {
  return withServer(invocation.folders, invocation, io, env, 'list', ({ server, folder }) => listed(server, folder, invocation.values, io));
}

async function listed(
  server: Awaited<ReturnType<typeof skillsServer>>['server'],
  folder: Awaited<ReturnType<typeof skillsServer>>['folder'],
  values: Invocation['values'],
  io: CliIo,
): Promise<number> {
  const prompts = await server.prompts();
  const tools = (await server.engine.tools()).map((tool) => tool.name);
  // What failed to load is not listed: said on stderr, so a broken skill is not simply missing.
  for (const issue of loadFindings(folder.catalogue)) printLine(io.stderr, `skillport list: ${shownIssue(issue)}`);
  if (values.json) printJson(io.stdout, { prompts, resources: folder.catalogue.resources.length, skills: folder.catalogue.skills.length, tools });
  else {
    const width = Math.min(40, Math.max(...prompts.map((p) => p.name.length), 4));
    for (const prompt of prompts) {
      const args = (prompt.arguments ?? []).map((a) => (a.required ? a.name : `[${a.name}]`)).join(' ');
      printLine(io.stdout, `${prompt.name.padEnd(width)}  ${prompt.description ?? ''}${args ? `  (${args})` : ''}`);
    }
    // The tools `serve` adds for hosts that only call tools, named once rather than listed: their description is the skill list above.
    printLine(io.stdout, `tools: ${tools.join(', ')} (serve --no-tools leaves them out)`);
    const { skills, resources } = folder.catalogue;
    printLine(io.stdout, `${counted(prompts.length, 'prompt')}, ${counted(skills.length, 'skill')}, ${counted(resources.length, 'resource')}`);
  }
  return 0;
}

export async function get(invocation: Invocation, io: CliIo, env: Env = {}): Promise<number> {
  const { args: positionals, folders, values } = invocation;
  const [name, ...rest] = positionals;
  if (name === undefined || rest.length > 0) throw new UsageError('expects one prompt NAME (folders go in --dir)', 'get');
  const args = keyValues(values.arg, 'get');
  return withServer(folders, invocation, io, env, 'get', async ({ server, folder, logger }) => {
    const served = await server.prompts();
    const failed = notServed(name, served, folder.catalogue, io, 'get');
    if (failed !== undefined) return failed;
    requireDeclared(
      served.find((p) => p.name === name),
      Object.keys(args),
      'get',
    );
    return guarded(io, 'get', async () => {
      const result = await server.engine.getPrompt(name, args, commandContext(logger));
      if (values.json) printJson(io.stdout, result);
      // A prompt's text is shown as its lines; --json gives it exactly.
      else
        for (const message of result.messages) printText(io.stdout, message.content.type === 'text' ? message.content.text : JSON.stringify(message.content));
      return 0;
    });
  });
}

export async function complete(invocation: Invocation, io: CliIo, env: Env = {}): Promise<number> {
  const { args: positionals, folders, values } = invocation;
  const [name, argument, partial = '', ...rest] = positionals;
  if (name === undefined || argument === undefined || rest.length > 0) throw new UsageError('expects NAME ARG [VALUE] (folders go in --dir)', 'complete');
  const context = keyValues(values.arg, 'complete');
  return withServer(folders, invocation, io, env, 'complete', async ({ server, folder, logger }) => {
    const served = await server.prompts();
    const failed = notServed(name, served, folder.catalogue, io, 'complete');
    if (failed !== undefined) return failed;
    requireDeclared(
      served.find((p) => p.name === name),
      [argument, ...Object.keys(context)],
      'complete',
    );
    return guarded(io, 'complete', async () => {
      const result = await server.engine.complete({ type: 'prompt', name }, { name: argument, value: partial }, { arguments: context }, commandContext(logger));
      if (values.json) printJson(io.stdout, result);
      else for (const value of result.values) printLine(io.stdout, value);
      return 0;
    });
  });
}
