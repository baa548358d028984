/**
 * The prompt, resource and skills providers over a folder's live catalogue
 * (live-catalogue.ts): each request reads the catalogue served at that
 * moment, and a file found changed since it was catalogued reloads it first.
 */
import { perCaller } from '../core/audience.js';
import { OutputLimitError, ResourceNotFoundError } from '../core/errors.js';
import type { PromptResult } from '../core/model.js';
import type { PromptProvider } from '../core/prompts.js';
import type { ResourceProvider } from '../core/resources.js';
import { toBase64 } from '../core/resources.js';
import type { SkillsProvider } from '../core/skills.js';
import { ErrorCode, InvalidParamsError, ProtocolError } from '../jsonrpc/errors.js';
import { parseUriTemplate } from '../util/uri-template.js';
import { ArgumentValueError } from './catalogue/catalogue.js';
import { promptResultOf } from './catalogue/entries.js';
import { byUri } from './catalogue/uri-lookup.js';
import type { LiveCatalogue } from './live-catalogue.js';
import { StaleFileError } from './load/load-skill.js';
import { decodeExact, digestOf } from './load/skill-record.js';

/** The resource template every skill file matches (SEP-2640 URI shape). */
export const SKILL_FILE_TEMPLATE = 'skill://{skill}/{+path}';

const TEMPLATE = parseUriTemplate(SKILL_FILE_TEMPLATE);

/** Renders the prompt `name` of the catalogue served now. */
export function getPrompt(
  live: LiveCatalogue,
  name: string,
  args: Record<string, string>,
  attempt: number,
  maxBytes: number | undefined,
): PromptResult | Promise<PromptResult> {
  const entry = live.current.promptsByName.get(name);
  if (!entry) throw new InvalidParamsError(`Unknown prompt: "${name}"`, { name });
  let rendered: { text: string; description: string | undefined };
  try {
    const fixed = entry.fixed?.(args);
    if (fixed) return fixed;
    // Substitution stops once the text passes the server's prompt limit: a
    // bytes limit holds as a code-unit one (UTF-8 needs at least a byte per unit).
    rendered = entry.render(args, maxBytes);
  } catch (error) {
    if (error instanceof ArgumentValueError) throw new InvalidParamsError(error.message, { name });
    // The file changed since the catalogue read it: reload, so the text and the
    // prompt's arguments and description come from the same version of the file.
    if (error instanceof StaleFileError) {
      if (attempt > 0) throw new ProtocolError(ErrorCode.InternalError, `The prompt "${name}" is changing; try again`);
      return live.reload().then(() => getPrompt(live, name, args, attempt + 1, maxBytes));
    }
    throw error;
  }
  return promptResultOf(rendered.text, rendered.description);
}

export function promptProvider(live: LiveCatalogue): PromptProvider {
  const prompts: PromptProvider = {
    list: () => live.current.prompts,
    get: (name, args, ctx) => getPrompt(live, name, args, 0, ctx.limits?.maxPromptBytes),
    async complete(name, argument, context, ctx) {
      const completer = live.current.promptsByName.get(name)?.completers.get(argument.name);
      return completer ? completer(argument.value, context, ctx) : { values: [] };
    },
  };
  // Always watchable, also without `watch`: a request that finds a file changed
  // or gone reloads the catalogue, and the server must then drop what it cached
  // of the old one (and may tell clients), or a deleted skill stays listed forever.
  prompts.watch = (listener) => live.promptChanges.watch(listener);
  return prompts;
}

async function readFile(live: LiveCatalogue, uri: string, attempt: number, maxBytes: number): Promise<{ bytes: Uint8Array; mimeType: string; text: boolean }> {
  const entry = byUri(live.current.files, uri);
  if (!entry) throw new ResourceNotFoundError(uri);
  // The server's cap on a read (ctx.limits), checked on the catalogued size and
  // again on the file opened: a file over it is never read whole to be refused.
  const tooLarge = (): OutputLimitError => new OutputLimitError(`the file has more than ${maxBytes} bytes`);
  if (entry.record.size > maxBytes) throw tooLarge();
  const read = await entry.fs.read(entry.record.rel, maxBytes);
  if ('refused' in read) throw read.refused === 'too-large' ? tooLarge() : new ResourceNotFoundError(uri);
  // The manifest promised these bytes (SEP-2640 §resources/read): if the file
  // changed since, reload first so the bytes are never served under the old digest.
  if (digestOf(read.bytes) !== entry.record.digest) {
    if (attempt > 0) throw new ProtocolError(ErrorCode.InternalError, `${uri} is changing; try again`);
    await live.reload();
    return readFile(live, uri, attempt + 1, maxBytes);
  }
  return { bytes: read.bytes, mimeType: entry.record.mimeType, text: entry.record.text };
}

export function resourceProvider(live: LiveCatalogue): ResourceProvider {
  const resources: ResourceProvider = {
    list: () => live.current.resources,
    templates: () => [
      {
        uriTemplate: SKILL_FILE_TEMPLATE,
        name: 'skill-file',
        title: 'Skill files',
        description: 'Any file of a served skill: SKILL.md, references, scripts, assets.',
      },
    ],
    async read(uri, ctx) {
      // A file the caller may not use is not found, exactly as one that does not exist.
      const current = live.current;
      const entry = byUri(current.files, uri);
      if (entry && !current.mayRead(entry.record.uri, ctx.principal)) throw new ResourceNotFoundError(uri);
      const { bytes, mimeType, text } = await readFile(live, uri, 0, ctx.limits?.maxResourceBytes ?? Number.POSITIVE_INFINITY);
      const decoded = text ? decodeExact(bytes) : undefined;
      const result = { contents: [decoded !== undefined ? { uri, mimeType, text: decoded } : { uri, mimeType, blob: toBase64(bytes) }] };
      // A restricted file's contents are an answer for the callers that may read it, not for anyone.
      return ctx.principal !== undefined && entry && live.current.restricted(entry.record.uri) ? perCaller(result) : result;
    },
    complete(uriTemplate, argument, context, ctx) {
      if (uriTemplate !== SKILL_FILE_TEMPLATE || !TEMPLATE.variables.includes(argument.name)) {
        throw new InvalidParamsError(`Template ${uriTemplate} has no variable "${argument.name}"`, { name: argument.name });
      }
      // `{skill}` is one URI segment: the skills at the top (a nested skill's files
      // are files of the skill that holds it), and `{+path}` a path inside the chosen one.
      const catalogue = live.current;
      if (argument.name === 'skill') return catalogue.skillCompletionsFor(ctx.principal).complete(argument.value);
      const chosen = context.arguments.skill;
      const skill = chosen === undefined ? undefined : catalogue.topSkills.get(chosen);
      // A skill the caller may not use completes like one that does not exist.
      // Nor does a path of a skill nested in it that the caller may not use.
      return skill && catalogue.mayRead(skill.uri, ctx.principal)
        ? catalogue.pathCompletionsFor(skill, ctx.principal).complete(argument.value)
        : { values: [] };
    },
  };
  resources.watch = (listener) => live.resourceChanges.watch(listener);
  resources.mayRead = (uri, principal) => {
    const current = live.current;
    const entry = byUri(current.files, uri);
    return current.mayRead(entry ? entry.record.uri : uri, principal);
  };
  return resources;
}

export function skillsProvider(live: LiveCatalogue): SkillsProvider {
  const skills: SkillsProvider = {
    listSkills: () => live.current.skillEntries,
    getSkill: (uri) => live.current.skillsByUri.get(uri),
    readDirectory: (uri) => byUri(live.current.directories, uri),
  };
  skills.watch = (listener) => live.skillChanges.watch(listener);
  return skills;
}
