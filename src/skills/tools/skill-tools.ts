/**
 * A skills folder as two tools, for hosts that call tools but show no prompts
 * or resources (DESIGN.md, Skills served four ways: ChatGPT, Codex, Windsurf, JetBrains AI
 * Assistant): `load_skill`, whose description lists the skills, so that the
 * model loads one when a task matches it (the way Agent Skills are meant to
 * be used), and `read_skill_file`, for the files a loaded skill names.
 *
 * Neither reads anything itself: `load_skill` renders the skill's prompt
 * (arguments, locale variants, citations: exactly `prompts/get`, but for a
 * required argument the host cannot ask for: skill-arguments.ts), and
 * `read_skill_file` reads the file's `skill://` URI through the folder's
 * resource read, with its confinement, limits and digest check.
 */

import type { Awaitable, HandlerContext, RequestContext } from '../../core/context.js';
import { isOutputLimitError, ToolArgumentsError } from '../../core/errors.js';
import type { CallToolResult, Completion, ContentBlock, PromptResult, ReadResourceResult, Tool } from '../../core/model.js';
import { defineTool, type ToolDefinition, type ToolProvider } from '../../core/tools.js';
import { InvalidParamsError } from '../../jsonrpc/errors.js';
import { createEmitter } from '../../util/emitter.js';
import type { Catalogue } from '../catalogue/catalogue-view.js';
import type { DirectoryEntry, SkillDirectory } from '../catalogue/skill-directory.js';
import { argumentValues, type GivenArguments, type Offered, unfilledNote, withPlaceholders } from './skill-arguments.js';
import { describeSkills, fileList, searchAnswer, unknownFile, unknownSkill } from './skill-listing.js';

/** The names of the two tools: snake_case, as the tool names hosts already know (`read_file`, `web_search`). */
export const LOAD_SKILL = 'load_skill';
export const READ_SKILL_FILE = 'read_skill_file';

/** What the tools use of the folder: its current catalogue, its prompts' rendering and completion, and its resource read. */
export interface SkillToolSource {
  catalogue(): Catalogue;
  render(name: string, args: Record<string, string>, ctx: RequestContext): Awaitable<PromptResult>;
  complete(name: string, argument: string, args: Record<string, string>, ctx: RequestContext): Awaitable<Completion>;
  read(uri: string, ctx: RequestContext): Awaitable<ReadResourceResult>;
}

/** The folder's tools, and what its reload needs to tell clients of a changed listing. */
export interface SkillTools extends ToolProvider {
  watch(listener: () => void): () => void;
  /** After a reload: tells watchers when the listing of `next` differs from that of `previous`. */
  reloaded(previous: Catalogue, next: Catalogue): void;
}

/**
 * Images a model takes as images: the formats the major model APIs accept.
 * Other binary files, and other images (TIFF, icons), go as an embedded
 * resource, which a host may keep from the model but never rejects.
 */
const MODEL_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

const LOAD_INPUT = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The name of the skill to load, as listed.' },
    arguments: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description:
        "Values for the skill's arguments, by name. A skill loaded without one it requires comes with a note naming what it takes, to fill in from the conversation.",
    },
    locale: {
      type: 'string',
      description: 'A BCP 47 language tag (fr, pt-BR): the skill in that language, or the closest it has (fr-CA gets fr); else its default text.',
    },
    query: {
      type: 'string',
      description:
        'Instead of name: words from the task, to search the skills by name, description and headings; answers with the skills that match well, best first.',
    },
  },
  // `name` or `query`: checked in the call rather than with anyOf, which some
  // hosts refuse at the top of a tool's schema.
  additionalProperties: false,
} as const;

const READ_INPUT = {
  type: 'object',
  properties: {
    skill: { type: 'string', description: 'The name of the skill.' },
    path: { type: 'string', description: 'The path of the file inside the skill, as load_skill lists it (references/forms.md).' },
  },
  required: ['skill', 'path'],
  additionalProperties: false,
} as const;

const READ_DESCRIPTION =
  'Returns one file of an Agent Skill: a reference, script, template or asset that the skill, loaded with load_skill, names. ' +
  'Text files come back as text, PNG, JPEG, GIF and WebP images as images, other files as an embedded resource (base64).';

interface LoadArguments extends GivenArguments {
  name?: string;
  query?: string;
}

/** Instructions for a server whose skills are prompts and resources only. */
const RESOURCE_INSTRUCTIONS = 'Agent Skills served as prompts; every skill file is also a resource under skill://<skill>/<path>.';

/** Instructions for a server that also serves the skill tools: one short paragraph a model reads once. */
const TOOL_INSTRUCTIONS =
  'This server has Agent Skills: instructions for particular kinds of task, with the files they use. ' +
  "The load_skill tool's description lists them (its query input searches them when there are many). " +
  'When a task matches a skill, call load_skill with its name before starting and follow what it says; ' +
  'read the files it names with read_skill_file. The skills are also prompts, and every skill file is a resource under skill://<skill>/<path>.';

/** The server instructions of a folder served with or without its tools. */
export function instructionsFor(tools: boolean): string {
  return tools ? TOOL_INSTRUCTIONS : RESOURCE_INSTRUCTIONS;
}

/** The loadable skill `name`, or a failure the model can act on. */
function need(directory: SkillDirectory, name: string): DirectoryEntry {
  const entry = directory.get(name);
  if (!entry) throw new Error(unknownSkill(directory, name));
  return entry;
}

/** `load_skill`: a search's answer, or the skill rendered as `prompts/get` renders it, then its other files. */
async function loadSkill(source: SkillToolSource, input: LoadArguments, ctx: HandlerContext): Promise<ContentBlock[]> {
  const { name, query } = input;
  // What this caller may load (catalogue/owners.ts, core/audience.ts): the others are answered as unknown.
  const directory = source.catalogue().skillDirectoryFor(ctx.principal);
  if (name === undefined) {
    if (query === undefined) throw new ToolArgumentsError(LOAD_SKILL, ['/: give the name of a skill to load, or a query to search the skills']);
    return [{ type: 'text', text: searchAnswer(directory, query) }];
  }
  const { prompt, skill } = need(directory, name);
  const offered: Offered = (argument, values) => source.complete(name, argument, values, ctx);
  const { values, issues, unfilled } = await argumentValues(name, prompt, input, ctx, offered);
  if (issues.length > 0) throw new ToolArgumentsError(LOAD_SKILL, issues);
  let rendered: PromptResult;
  try {
    rendered = await source.render(name, withPlaceholders(values, unfilled), ctx);
  } catch (error) {
    // A value the skill refuses (a locale that is not a language tag): the caller's to correct.
    if (error instanceof InvalidParamsError) throw new ToolArgumentsError(LOAD_SKILL, [error.message]);
    if (isOutputLimitError(error)) throw new Error(`The skill "${name}" is larger than this server sends`);
    throw error;
  }
  const content: ContentBlock[] = rendered.messages.map((message) => message.content);
  // Read before the text it is about: what the skill takes and what the model is to fill in.
  if (unfilled.length > 0) content.unshift({ type: 'text', text: await unfilledNote(name, prompt, values, unfilled, offered) });
  // Not the files of a skill nested in this one that the caller may not use.
  const files = fileList(skill, source.catalogue().filesFor(skill, ctx.principal));
  if (files !== undefined) content.push({ type: 'text', text: files });
  return content;
}

/** `read_skill_file`: a catalogued file of a loadable skill, read as the resource it is. */
async function readSkillFile(source: SkillToolSource, input: { skill: string; path: string }, ctx: RequestContext): Promise<CallToolResult> {
  const { skill: name, path } = input;
  const catalogue = source.catalogue();
  const directory = catalogue.skillDirectoryFor(ctx.principal);
  const { skill } = need(directory, name);
  // A catalogued path or nothing: the path is looked up, never resolved, so `..`,
  // absolute paths and encodings name no file; the read is the resource read.
  // A file of a nested skill the caller may not use is no file, and no path close to one names it.
  const file = directory.file(skill, path);
  if (!file || !catalogue.mayRead(file.uri, ctx.principal)) throw new Error(unknownFile(catalogue.pathCompletionsFor(skill, ctx.principal), skill, path));
  let contents: ReadResourceResult['contents'];
  try {
    ({ contents } = await source.read(file.uri, ctx));
  } catch (error) {
    if (isOutputLimitError(error)) throw new Error(`${path} is larger than this server sends`);
    throw error;
  }
  return { content: contents.map(toContent) };
}

/** Creates the tools of a folder. */
export function skillTools(source: SkillToolSource): SkillTools {
  const changes = createEmitter<void>();
  const load = defineTool({
    name: LOAD_SKILL,
    title: 'Load a skill',
    inputSchema: LOAD_INPUT,
    annotations: READ_ONLY,
    call: (input, ctx) => loadSkill(source, input as LoadArguments, ctx),
  });
  const read = defineTool({
    name: READ_SKILL_FILE,
    title: 'Read a skill file',
    description: READ_DESCRIPTION,
    inputSchema: READ_INPUT,
    annotations: READ_ONLY,
    call: (input, ctx) => readSkillFile(source, input as { skill: string; path: string }, ctx),
  });

  const definitions = new Map<string, ToolDefinition>([
    [LOAD_SKILL, load],
    [READ_SKILL_FILE, read],
  ]);
  /** The two tools over `directory`, load_skill's description listing its skills; each directory keeps its own (catalogue/skill-directory.ts). */
  const listingOf = (directory: SkillDirectory): readonly Tool[] => [{ ...load.tool, description: describeSkills(directory) }, read.tool];
  const descriptionOf = (directory: SkillDirectory): string | undefined => directory.toolListing(listingOf)[0]?.description;

  return {
    // Built when the server (re)builds its tool catalogue: once per change, not per request.
    list: () => [...source.catalogue().skillDirectory.toolListing(listingOf)],
    // load_skill's description names only the skills the caller may load; one array per directory, so its pages are kept.
    // A folder without audiences lists the same to everyone: no listing of the caller's own.
    listFor(principal) {
      const catalogue = source.catalogue();
      if (!catalogue.owners.restricted) return undefined;
      return catalogue.skillDirectoryFor(principal).toolListing(listingOf);
    },
    call(name, args, ctx) {
      const definition = definitions.get(name);
      if (!definition) throw new InvalidParamsError(`Unknown tool: "${name}"`, { name });
      return definition.call(args, ctx);
    },
    watch: (listener) => changes.watch(listener),
    reloaded(previous, next) {
      // The description lists skills: a changed set may change it, and only then are clients told.
      if (descriptionOf(previous.skillDirectory) !== descriptionOf(next.skillDirectory)) changes.emit();
    },
  };
}

/** A file's contents as a tool gives them: text as text, images a model reads as images, the rest embedded. */
function toContent(contents: ReadResourceResult['contents'][number]): ContentBlock {
  if ('text' in contents) return { type: 'text', text: contents.text };
  const mimeType = contents.mimeType ?? 'application/octet-stream';
  if (MODEL_IMAGES.has(mimeType)) return { type: 'image', data: contents.blob, mimeType };
  return { type: 'resource', resource: contents };
}
