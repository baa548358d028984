/**
 * A skills folder as prompt, resource, skills and tool providers: the
 * providers (providers.ts) and the skill tools (tools/) over one live
 * catalogue (live-catalogue.ts), which a reload or a swap replaces whole.
 */

import type { PromptProvider } from '../core/prompts.js';
import type { ResourceProvider } from '../core/resources.js';
import type { SkillsProvider } from '../core/skills.js';
import type { ToolProvider } from '../core/tools.js';
import { buildCatalogue, type Catalogue } from './catalogue/catalogue.js';
import { type LiveCatalogueOptions, liveCatalogue } from './live-catalogue.js';
import { getPrompt, promptProvider, resourceProvider, skillsProvider } from './providers.js';
import { instructionsFor, skillTools } from './tools/skill-tools.js';
import { countedProviders, type UseListener } from './usage.js';

export { SKILL_FILE_TEMPLATE } from './providers.js';

export interface SkillsFolderOptions extends LiveCatalogueOptions {
  /**
   * Also serve the skills as the tools `load_skill` and `read_skill_file`, for
   * hosts that call tools but show no prompts or resources. Default true.
   */
  tools?: boolean;
  /**
   * Told of each use of a skill served (skills/usage.ts): its path, or a
   * prompt file's name, and the surface (`prompt`, `skill`, `file`,
   * `load_skill`, `read_skill_file`). For usage metrics.
   */
  onUse?: UseListener;
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
  // Made before the first reload can run, which tells them of their listing's changes;
  // what they call of the folder runs only with a request, once the folder is made.
  const tools =
    options.tools === false
      ? undefined
      : skillTools({
          catalogue: () => folder.current,
          render: (name, args, ctx) => getPrompt(folder, name, args, 0, ctx.limits?.maxPromptBytes),
          complete: (name, argument, args, ctx) => prompts.complete?.(name, { name: argument, value: '' }, { arguments: args }, ctx) ?? { values: [] },
          read: (uri, ctx) => resources.read(uri, ctx),
        });
  const folder = await liveCatalogue(roots, first, options, tools && ((previous, next) => tools.reloaded(previous, next)));
  const prompts = promptProvider(folder);
  const resources = resourceProvider(folder);
  const providers = { prompts, resources, skills: skillsProvider(folder), tools };
  // The tools above call the inner providers: a load_skill counts as itself, not also as a prompt.
  const served = options.onUse ? countedProviders(folder, providers, options.onUse) : providers;
  return {
    prompts: served.prompts,
    resources: served.resources,
    skills: served.skills,
    ...(served.tools ? { tools: served.tools } : {}),
    instructions: instructionsFor(tools !== undefined),
    get catalogue() {
      return folder.current;
    },
    reload: () => folder.reload(),
    swap: (next) => folder.swap(next),
    close: () => folder.close(),
  };
}
