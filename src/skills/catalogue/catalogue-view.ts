/**
 * What a catalogue is: everything served from the folders at one point in
 * time, immutable. Prompts are built with it; resources, files, Skills-
 * extension entries, directory listings, completion indexes and the skill
 * tools' directory are derived from its skills on first use, once per catalogue.
 */
import { audienceOf, restrictTo, withParts } from '../../core/audience.js';
import type { Principal } from '../../core/context.js';
import type { Prompt, Resource } from '../../core/model.js';
import { type CompletionIndex, createCompletionIndex } from '../../core/rank.js';
import type { SkillEntry } from '../../core/skills.js';
import type { ConfinedFs } from '../load/confined-fs.js';
import type { Issue } from '../load/issues.js';
import type { SkillFileRecord, SkillRecord } from '../load/skill-record.js';
import { AudienceViews } from './audience-views.js';
import { directoryListings, type PromptEntry } from './entries.js';
import { Owners } from './owners.js';
import { SkillDirectory } from './skill-directory.js';

/** A servable file: its record and the folder it lives in. */
export interface FileEntry {
  fs: ConfinedFs;
  record: SkillFileRecord;
}

/**
 * Everything served from the folders at one point in time. Prompts are built
 * with the catalogue; resources, files, Skills-extension entries and directory
 * listings are derived from the skills on first use, once per catalogue, so a
 * large folder answers `prompts/list` without building views nobody asked for.
 */
export interface Catalogue {
  readonly prompts: readonly Prompt[];
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  readonly resources: readonly Resource[];
  readonly files: ReadonlyMap<string, FileEntry>;
  readonly skills: readonly SkillRecord[];
  readonly skillEntries: readonly SkillEntry[];
  readonly skillsByUri: ReadonlyMap<string, SkillEntry>;
  /** Children of each directory URI (skill roots and their sub-folders). */
  readonly directories: ReadonlyMap<string, readonly Resource[]>;
  /**
   * The skills the `{skill}` variable of `skill://{skill}/{+path}` names, by
   * path: those inside no other skill (a nested skill's files are files of
   * the skill that holds it), so each is one URI segment.
   */
  readonly topSkills: ReadonlyMap<string, SkillRecord>;
  /** Completions of {@link topSkills}' names, indexed once per catalogue. */
  readonly skillCompletions: CompletionIndex;
  /** Completions of the paths inside one skill, indexed once per catalogue and skill. */
  pathCompletions(skill: SkillRecord): CompletionIndex;
  /** The skills the `load_skill` tool lists and searches. */
  readonly skillDirectory: SkillDirectory;
  /** The innermost skill holding each URI, whose audience (owners.ts) is that of the URI. */
  readonly owners: Owners;
  /** {@link skillDirectory} as `principal` may see it (the catalogue's own when it sees all). */
  skillDirectoryFor(principal: Principal | undefined): SkillDirectory;
  /** {@link skillCompletions} as `principal` may see them. */
  skillCompletionsFor(principal: Principal | undefined): CompletionIndex;
  /** Whether `principal` may use what is at `uri` (a file or folder of a skill). */
  mayRead(uri: string, principal: Principal | undefined): boolean;
  /** Whether what is at `uri` is restricted to audiences, so that a read of it is its caller's answer alone. */
  restricted(uri: string): boolean;
  /** The files of `skill` that `principal` may use: all but those of a restricted skill nested in it. */
  filesFor(skill: SkillRecord, principal: Principal | undefined): readonly SkillFileRecord[];
  /** {@link pathCompletions} of the files `principal` may use. */
  pathCompletionsFor(skill: SkillRecord, principal: Principal | undefined): CompletionIndex;
  readonly issues: readonly Issue[];
  /** The folders, as given, where nothing was found, not even a finding (most often a wrong path). */
  readonly emptyFolders: readonly string[];
}

/** The served skills of one folder, in catalogue order. */
export interface Served {
  fs: ConfinedFs;
  skills: SkillRecord[];
}

/** What a catalogue is built from (catalogue.ts `buildCatalogue`). */
export interface CatalogueParts {
  readonly prompts: readonly Prompt[];
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  readonly skills: readonly SkillRecord[];
  readonly issues: readonly Issue[];
  readonly served: readonly Served[];
  /** Skills the Skills extension cannot carry: served as prompts and resources only. */
  readonly outsideExtension: ReadonlySet<SkillRecord>;
  readonly emptyFolders: readonly string[];
}

export class BuiltCatalogue implements Catalogue {
  readonly prompts: readonly Prompt[];
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  readonly skills: readonly SkillRecord[];
  readonly issues: readonly Issue[];
  readonly emptyFolders: readonly string[];
  #served: readonly Served[];
  /** Skills the Skills extension cannot carry: served as prompts and resources only. */
  #outsideExtension: ReadonlySet<SkillRecord>;
  #files: Map<string, FileEntry> | undefined;
  #resources: Resource[] | undefined;
  #skillEntries: SkillEntry[] | undefined;
  #skillsByUri: Map<string, SkillEntry> | undefined;
  #directories: Map<string, readonly Resource[]> | undefined;
  #topSkills: Map<string, SkillRecord> | undefined;
  #skillCompletions: CompletionIndex | undefined;
  #pathCompletions: Map<SkillRecord, CompletionIndex> | undefined;
  #skillDirectory: SkillDirectory | undefined;
  #owners: Owners | undefined;
  /** What each caller may see of this catalogue, made as callers come. */
  readonly #views = new AudienceViews(this);

  constructor(parts: CatalogueParts) {
    this.#outsideExtension = parts.outsideExtension;
    this.prompts = parts.prompts;
    this.promptsByName = parts.promptsByName;
    this.skills = parts.skills;
    this.issues = parts.issues;
    this.emptyFolders = parts.emptyFolders;
    this.#served = parts.served;
  }

  /** Every file of every skill by URI; the first skill to claim a URI keeps it. */
  get files(): ReadonlyMap<string, FileEntry> {
    if (this.#files) return this.#files;
    const files = new Map<string, FileEntry>();
    for (const { fs, skills } of this.#served) {
      for (const skill of skills) {
        for (const record of skill.files) {
          // A record's URI is derived on each read: read it once.
          const uri = record.uri;
          if (!files.has(uri)) files.set(uri, { fs, record });
        }
      }
    }
    return (this.#files = files);
  }

  get resources(): readonly Resource[] {
    if (this.#resources) return this.#resources;
    const resources: Resource[] = [];
    const seen = new Set<string>();
    for (const skill of this.skills) {
      for (const record of skill.files) {
        const uri = record.uri;
        if (seen.has(uri)) continue;
        seen.add(uri);
        const isSkillFile = record === skill.file;
        // SKILL.md is named as its skill (SEP-2640 §resource metadata); any other file by its
        // skill and path, so twenty LICENSE.txt files can be told apart in a list.
        const resource: Resource = { uri, name: isSkillFile ? skill.name : `${skill.path}/${record.inSkill}`, mimeType: record.mimeType, size: record.size };
        if (isSkillFile) resource.description = skill.description;
        resources.push(this.owners.restrict(resource, uri));
      }
    }
    return (this.#resources = resources);
  }

  get skillEntries(): readonly SkillEntry[] {
    const carried = this.#outsideExtension.size === 0 ? this.skills : this.skills.filter((skill) => !this.#outsideExtension.has(skill));
    const owners = this.owners;
    // Each file of the manifest is its owner's: a skill nested in this one may have audiences of its own.
    this.#skillEntries ??= carried.map((skill) =>
      withParts(
        restrictTo(
          {
            uri: skill.uri,
            frontmatter: skill.frontmatter,
            resources: skill.files.map((f) => owners.restrict({ uri: f.uri, digest: f.digest, size: f.size }, f.uri)),
          },
          audienceOf(skill),
        ),
        'resources',
      ),
    );
    return this.#skillEntries;
  }

  get skillsByUri(): ReadonlyMap<string, SkillEntry> {
    this.#skillsByUri ??= new Map(this.skillEntries.map((entry) => [entry.uri, entry]));
    return this.#skillsByUri;
  }

  get topSkills(): ReadonlyMap<string, SkillRecord> {
    this.#topSkills ??= new Map(this.skills.filter((skill) => !skill.path.includes('/')).map((skill) => [skill.path, skill]));
    return this.#topSkills;
  }

  get skillCompletions(): CompletionIndex {
    this.#skillCompletions ??= createCompletionIndex([...this.topSkills.keys()]);
    return this.#skillCompletions;
  }

  pathCompletions(skill: SkillRecord): CompletionIndex {
    this.#pathCompletions ??= new Map();
    let index = this.#pathCompletions.get(skill);
    if (!index) {
      index = createCompletionIndex(skill.files.map((f) => f.inSkill));
      this.#pathCompletions.set(skill, index);
    }
    return index;
  }

  get skillDirectory(): SkillDirectory {
    this.#skillDirectory ??= new SkillDirectory(this);
    return this.#skillDirectory;
  }

  get owners(): Owners {
    this.#owners ??= new Owners(this.skills);
    return this.#owners;
  }

  skillDirectoryFor(principal: Principal | undefined): SkillDirectory {
    return this.#views.skillDirectoryFor(principal);
  }

  skillCompletionsFor(principal: Principal | undefined): CompletionIndex {
    return this.#views.skillCompletionsFor(principal);
  }

  mayRead(uri: string, principal: Principal | undefined): boolean {
    return this.#views.mayRead(uri, principal);
  }

  restricted(uri: string): boolean {
    return this.#views.restricted(uri);
  }

  filesFor(skill: SkillRecord, principal: Principal | undefined): readonly SkillFileRecord[] {
    return this.#views.filesFor(skill, principal);
  }

  pathCompletionsFor(skill: SkillRecord, principal: Principal | undefined): CompletionIndex {
    return this.#views.pathCompletionsFor(skill, principal);
  }

  get directories(): ReadonlyMap<string, readonly Resource[]> {
    if (this.#directories) return this.#directories;
    const directories = new Map<string, readonly Resource[]>();
    const owners = this.owners;
    for (const skill of this.skills) {
      for (const [uri, children] of directoryListings(skill)) {
        if (directories.has(uri)) continue;
        // A listing is its folder's skill's, each child its own skill's (a nested skill's folder is the nested skill's).
        for (const child of children) owners.restrict(child, child.uri);
        directories.set(uri, owners.restrict(children, uri));
      }
    }
    return (this.#directories = directories);
  }
}
