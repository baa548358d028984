/**
 * A skills folder as prompt, resource, skills and tool providers, with optional
 * live reload: every folder is watched (see load/watch-tree.ts), a change builds a new catalogue, and
 * the new one replaces the old in one assignment only if it was built; a
 * failed reload keeps the last good catalogue and logs why.
 */

import { perCaller } from '../core/audience.js';
import { createEmitter } from '../core/changes.js';
import { type Logger, silentLogger } from '../core/context.js';
import { boundedDebounce } from '../core/debounce.js';
import { OutputLimitError, ResourceNotFoundError } from '../core/errors.js';
import type { PromptResult } from '../core/model.js';
import type { PromptProvider } from '../core/prompts.js';
import type { ResourceEvent, ResourceProvider } from '../core/resources.js';
import { toBase64 } from '../core/resources.js';
import type { SkillsProvider } from '../core/skills.js';
import type { ToolProvider } from '../core/tools.js';
import { parseUriTemplate } from '../core/uri-template.js';
import { ErrorCode, InvalidParamsError, ProtocolError } from '../jsonrpc/errors.js';
import { ArgumentValueError, buildCatalogue, type Catalogue, type CatalogueOptions } from './catalogue/catalogue.js';
import { promptResultOf } from './catalogue/entries.js';
import { byUri } from './catalogue/uri-lookup.js';
import { formatIssue } from './load/issues.js';
import { StaleFileError } from './load/load-skill.js';
import { decodeExact, digestOf } from './load/skill-record.js';
import { type TreeWatcher, watchTree } from './load/watch-tree.js';
import { instructionsFor, skillTools } from './tools/skill-tools.js';

export interface SkillsFolderOptions extends CatalogueOptions {
  /** Watch the folders and reload on change. */
  watch?: boolean;
  /**
   * Quiet period after the last change before reloading, in ms. Default 100.
   * Changes that never pause still reload at least every ten such periods.
   */
  debounceMs?: number;
  logger?: Logger;
  /**
   * Also serve the skills as the tools `load_skill` and `read_skill_file`, for
   * hosts that call tools but show no prompts or resources. Default true.
   */
  tools?: boolean;
}

/** A loaded skills folder, ready to hand to createServer. */
export interface SkillsFolder {
  readonly prompts: PromptProvider;
  readonly resources: ResourceProvider;
  readonly skills: SkillsProvider;
  /** `load_skill` and `read_skill_file`; absent with `tools: false`. */
  readonly tools?: ToolProvider;
  /** Server instructions that tell a model how to reach this folder's skills (createServer's `instructions`). */
  readonly instructions: string;
  /** The catalogue currently served. */
  readonly catalogue: Catalogue;
  /** Rebuilds now; resolves false when the rebuild failed and the old catalogue stays. */
  reload(): Promise<boolean>;
  /** Stops watching. */
  close(): void;
}

/** The resource template every skill file matches (SEP-2640 URI shape). */
export const SKILL_FILE_TEMPLATE = 'skill://{skill}/{+path}';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Loads skills folders. Throws when a folder cannot be opened; problems with
 * single files are reported in `catalogue.issues` (and to the logger) and the
 * rest is served.
 *
 * @example
 * const folder = await loadSkillsFolder(['./skills'], { watch: true });
 * const server = createServer({ name: 'skills', version: '1.0.0', ...folder });
 */
export async function loadSkillsFolder(dirs: readonly string[], options: SkillsFolderOptions = {}): Promise<SkillsFolder> {
  if (dirs.length === 0) throw new TypeError('loadSkillsFolder needs at least one folder');
  return servedFolder(() => dirs, await buildCatalogue(dirs, options), options);
}

/** A {@link SkillsFolder} whose catalogue its owner can also replace with one it built (a git source's next commit). */
export interface SwappableFolder extends SkillsFolder {
  /**
   * Serves `next` from now on, telling listeners what changed as a reload
   * does. The caller points `roots` at next's folders first, so a reload
   * after this reads them; a reload that was reading the old ones is dropped.
   */
  swap(next: Catalogue): void;
}

/**
 * The providers over `first`, rebuilt from `roots()` on a reload. Not exported
 * from the entry: `loadSkillsFolder` and the git source are the ways in.
 */
export async function servedFolder(roots: () => readonly string[], first: Catalogue, options: SkillsFolderOptions): Promise<SwappableFolder> {
  const logger = options.logger ?? silentLogger;
  let current = first;
  // Counts swaps: a rebuild that read the folders before a swap must not undo it.
  let generation = 0;
  for (const issue of current.issues) if (issue.severity !== 'note') logger.warn(formatIssue(issue));

  const promptChanges = createEmitter<void>();
  const resourceChanges = createEmitter<ResourceEvent>();
  const skillChanges = createEmitter<void>();
  const live = options.watch === true;
  // Made before the first reload can run, which tells them of their listing's changes.
  const tools =
    options.tools === false
      ? undefined
      : skillTools({
          catalogue: () => current,
          render: (name, args, ctx) => getPrompt(name, args, 0, ctx.limits?.maxPromptBytes),
          complete: (name, argument, args, ctx) => prompts.complete?.(name, { name: argument, value: '' }, { arguments: args }, ctx) ?? { values: [] },
          read: (uri, ctx) => resources.read(uri, ctx),
        });

  let tree: TreeWatcher | undefined;
  let reloading: Promise<boolean> | undefined;
  let again = false;
  async function rebuild(): Promise<boolean> {
    let next: Catalogue;
    // Watch new folders before reading: a change after this is seen, one before it is read.
    await tree?.sync().catch((error: unknown) => logger.warn('Re-reading the watched folders failed', error));
    const started = generation;
    try {
      next = await buildCatalogue(roots(), options);
    } catch (error) {
      logger.error('Reload failed; still serving the last good catalogue', error);
      return false;
    }
    // Swapped meanwhile: what was read is the old folders', and the swap is newer.
    if (started !== generation) return true;
    apply(next);
    logger.info(`Reloaded: ${next.prompts.length} prompts, ${next.skills.length} skills`);
    return true;
  }
  /** Serves `next`, and tells each listener whose part changed. */
  function apply(next: Catalogue): void {
    const previous = current;
    current = next;
    for (const issue of next.issues) if (issue.severity !== 'note' && !previous.issues.some((i) => same(i, issue))) logger.warn(formatIssue(issue));
    if (!same(previous.prompts, next.prompts)) promptChanges.emit();
    if (!same(previous.resources, next.resources)) resourceChanges.emit({ type: 'listChanged' });
    for (const [uri, entry] of previous.files) {
      const now = next.files.get(uri);
      if (!now || now.record.digest !== entry.record.digest) resourceChanges.emit({ type: 'updated', uri });
    }
    if (!same(previous.skillEntries, next.skillEntries)) skillChanges.emit();
    tools?.reloaded(previous, next);
  }
  function reload(): Promise<boolean> {
    if (reloading) {
      // One more pass after the running one, so a change during a rebuild is not lost.
      again = true;
      return reloading;
    }
    reloading = rebuild().finally(() => {
      reloading = undefined;
      if (again) {
        again = false;
        void reload();
      }
    });
    return reloading;
  }

  const changed = boundedDebounce(() => void reload(), options.debounceMs ?? 100);
  if (live) {
    tree = watchTree(roots(), changed, (dir, error) => logger.warn(`Cannot watch ${dir}; changes in it will not be picked up`, error));
    await tree.sync();
  }

  const template = parseUriTemplate(SKILL_FILE_TEMPLATE);

  function getPrompt(name: string, args: Record<string, string>, attempt: number, maxBytes: number | undefined): PromptResult | Promise<PromptResult> {
    const entry = current.promptsByName.get(name);
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
        return reload().then(() => getPrompt(name, args, attempt + 1, maxBytes));
      }
      throw error;
    }
    return promptResultOf(rendered.text, rendered.description);
  }

  const prompts: PromptProvider = {
    list: () => current.prompts,
    get: (name, args, ctx) => getPrompt(name, args, 0, ctx.limits?.maxPromptBytes),
    async complete(name, argument, context, ctx) {
      const completer = current.promptsByName.get(name)?.completers.get(argument.name);
      return completer ? completer(argument.value, context, ctx) : { values: [] };
    },
  };
  // Always watchable, also without `watch`: a request that finds a file changed
  // or gone reloads the catalogue, and the server must then drop what it cached
  // of the old one (and may tell clients), or a deleted skill stays listed forever.
  prompts.watch = (listener) => promptChanges.watch(listener);

  async function readFile(uri: string, attempt: number, maxBytes: number): Promise<{ bytes: Uint8Array; mimeType: string; text: boolean }> {
    const entry = byUri(current.files, uri);
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
      await reload();
      return readFile(uri, attempt + 1, maxBytes);
    }
    return { bytes: read.bytes, mimeType: entry.record.mimeType, text: entry.record.text };
  }

  const resources: ResourceProvider = {
    list: () => current.resources,
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
      const entry = byUri(current.files, uri);
      if (entry && !current.mayRead(entry.record.uri, ctx.principal)) throw new ResourceNotFoundError(uri);
      const { bytes, mimeType, text } = await readFile(uri, 0, ctx.limits?.maxResourceBytes ?? Number.POSITIVE_INFINITY);
      const decoded = text ? decodeExact(bytes) : undefined;
      const result = { contents: [decoded !== undefined ? { uri, mimeType, text: decoded } : { uri, mimeType, blob: toBase64(bytes) }] };
      // A restricted file's contents are an answer for the callers that may read it, not for anyone.
      return ctx.principal !== undefined && entry && current.restricted(entry.record.uri) ? perCaller(result) : result;
    },
    complete(uriTemplate, argument, context, ctx) {
      if (uriTemplate !== SKILL_FILE_TEMPLATE || !template.variables.includes(argument.name)) {
        throw new InvalidParamsError(`Template ${uriTemplate} has no variable "${argument.name}"`, { name: argument.name });
      }
      // `{skill}` is one URI segment: the skills at the top (a nested skill's files
      // are files of the skill that holds it), and `{+path}` a path inside the chosen one.
      const catalogue = current;
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
  resources.watch = (listener) => resourceChanges.watch(listener);
  resources.mayRead = (uri, principal) => {
    const entry = byUri(current.files, uri);
    return current.mayRead(entry ? entry.record.uri : uri, principal);
  };

  const skills: SkillsProvider = {
    listSkills: () => current.skillEntries,
    getSkill: (uri) => current.skillsByUri.get(uri),
    readDirectory: (uri) => byUri(current.directories, uri),
  };
  skills.watch = (listener) => skillChanges.watch(listener);

  return {
    prompts,
    resources,
    skills,
    ...(tools ? { tools } : {}),
    instructions: instructionsFor(tools !== undefined),
    get catalogue() {
      return current;
    },
    reload,
    swap(next) {
      generation++;
      apply(next);
    },
    close() {
      changed.cancel();
      tree?.close();
    },
  };
}
