/**
 * Which skill each request used, for a team that curates its skills and
 * must see which ones nobody loads (issue 22): the providers a folder hands
 * to the server, wrapped so that each use served is told to a listener with
 * the skill's path (or a prompt file's name) as the catalogue has it, never
 * a name from the request. The skill tools call the folder's inner
 * providers, so a `load_skill` counts once, as itself, not also as a prompt.
 */
import type { PromptProvider } from '../core/prompts.js';
import type { ResourceProvider } from '../core/resources.js';
import type { SkillsProvider } from '../core/skills.js';
import type { ToolProvider } from '../core/tools.js';
import type { Catalogue, PromptEntry } from './catalogue/catalogue.js';
import { byUri } from './catalogue/uri-lookup.js';
import type { LiveCatalogue } from './live-catalogue.js';
import { LOAD_SKILL, READ_SKILL_FILE } from './tools/skill-tools.js';

/**
 * Where a skill was used: `prompt` (prompts/get), `skill` (the Skills
 * extension's skills/get), `file` (resources/read of one of its files),
 * and the two skill tools.
 */
export type SkillSurface = 'prompt' | 'skill' | 'file' | typeof LOAD_SKILL | typeof READ_SKILL_FILE;

/** Told of each use served: `skill` is a skill's path, or a prompt file's prompt name. */
export type UseListener = (skill: string, surface: SkillSurface) => void;

/** The folder's providers, each telling `onUse` of what it served. */
export interface CountedProviders {
  prompts: PromptProvider;
  resources: ResourceProvider;
  skills: SkillsProvider;
  tools: ToolProvider | undefined;
}

/** Calls `then` with the value once `value` (maybe a promise) is there; a failure is passed on untouched. */
function after<T>(value: T | Promise<T>, then: (done: T) => void): T | Promise<T> {
  if (value instanceof Promise) {
    return value.then((done) => {
      then(done);
      return done;
    });
  }
  then(value);
  return value;
}

/** The name a use of `entry` counts under: its skill's path, or the prompt's own name for a prompt of no skill. */
function usageName(entry: PromptEntry): string {
  return entry.skill?.path ?? entry.prompt.name;
}

/** Every name a use may count under in `catalogue`, used or not: each skill's path, then each prompt of no skill. */
export function usageNames(catalogue: Catalogue): string[] {
  const loose = catalogue.prompts.flatMap((prompt) => {
    const entry = catalogue.promptsByName.get(prompt.name);
    return entry && entry.skill === undefined ? [usageName(entry)] : [];
  });
  return [...catalogue.skills.map((skill) => skill.path), ...loose];
}

export function countedProviders(live: LiveCatalogue, providers: CountedProviders, onUse: UseListener): CountedProviders {
  const { prompts, resources, skills, tools } = providers;
  const promptUse = (name: string): void => {
    const entry = live.current.promptsByName.get(name);
    if (entry) onUse(usageName(entry), 'prompt');
  };
  const fileUse = (uri: string): void => {
    const entry = byUri(live.current.files, uri);
    const owner = entry && live.current.owners.ownerOf(entry.record.uri);
    if (owner) onUse(owner.path, 'file');
  };
  const toolUse = (tool: string, args: Record<string, unknown>): void => {
    const name = tool === LOAD_SKILL ? args.name : tool === READ_SKILL_FILE ? args.skill : undefined;
    // A search (load_skill with a query) loads no skill.
    const entry = typeof name === 'string' ? live.current.skillDirectory.get(name) : undefined;
    if (entry) onUse(entry.skill.path, tool as SkillSurface);
  };
  return {
    prompts: { ...prompts, get: (name, args, ctx) => after(prompts.get(name, args, ctx), () => promptUse(name)) },
    resources: { ...resources, read: (uri, ctx) => after(resources.read(uri, ctx), () => fileUse(uri)) },
    skills: {
      ...skills,
      getSkill: (uri) =>
        // Counted when found: a skill the caller may not use is then refused by the engine,
        // which this wrapper cannot see, and counts all the same (noted in docs/observability.md).
        after(skills.getSkill(uri), (entry) => {
          const owner = entry && live.current.owners.ownerOf(uri);
          if (owner) onUse(owner.path, 'skill');
        }),
    },
    tools: tools && { ...tools, call: (name, args, ctx) => after(tools.call(name, args, ctx), () => toolUse(name, args)) },
  };
}
