/**
 * The engine's part of the Skills extension (SEP-2640): the skill catalogue,
 * built once per change of the provider, its pages, skills by URI and
 * directory listings, each as the caller may see it. Without a provider (or
 * one that lists no directories) every URI is unknown; whether the server
 * serves the extension at all is the revision's to answer.
 */
import type { Encoded } from '../jsonrpc/encoded.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { mayUse, viewOf } from './audience.js';
import { cached } from './cached.js';
import type { Principal } from './context.js';
import type { Resource } from './model.js';
import { createPager, type Page } from './paginate.js';
import type { SkillEntry, SkillsProvider } from './skills.js';
import { pageFor } from './visible-page.js';

export interface SkillOperations {
  listSkills(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<SkillEntry>>>;
  getSkill(uri: string, principal?: Principal): Promise<SkillEntry>;
  readDirectory(uri: string, cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Resource>>>;
}

/** Operations over `provider`, and a stop for the watch. */
export function skillOperations(provider: SkillsProvider | undefined, pageSize: number): SkillOperations & { stop(): void } {
  const skillPages = createPager(pageSize);
  const directoryPages = createPager(pageSize, 64);
  const catalogue = cached(async () => (provider ? [...(await provider.listSkills())] : []));
  const stop = provider?.watch?.(() => catalogue.invalidate());

  return {
    listSkills: async (cursor, principal) => pageFor(skillPages, await catalogue.get(), cursor, principal),
    async getSkill(uri, principal) {
      const entry = await provider?.getSkill(uri);
      // SEP-2640 skills/get: an unknown URI is -32602; one the caller may not use, the same.
      if (!entry || !mayUse(entry, principal)) throw new InvalidParamsError(`No skill is served at ${uri}`, { uri });
      // Its manifest without the files of a skill nested in it that the caller may not use;
      // a view made for the caller's audiences is marked as such (core/audience.ts).
      return viewOf(entry, principal);
    },
    async readDirectory(uri, cursor, principal) {
      const children = await provider?.readDirectory?.(uri);
      // SEP-2640 resources/directory/read: missing or not a directory is -32602; a listing the
      // caller may not see (restricted as a whole, core/audience.ts) the same.
      if (!children || !mayUse(children, principal)) throw new InvalidParamsError(`${uri} is not a directory resource`, { uri });
      return pageFor(directoryPages, children, cursor, principal);
    },
    stop: () => stop?.(),
  };
}
