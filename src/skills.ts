/**
 * The skills entry: `import { loadSkillsFolder } from 'skillport/skills'`.
 */

export type { Catalogue, CatalogueOptions, PromptEntry } from './skills/catalogue/catalogue.js';
export { buildCatalogue } from './skills/catalogue/catalogue.js';
export type { GitSkillsFolder, GitSkillsOptions, GitSyncResult } from './skills/git/source.js';
export { loadGitSkills } from './skills/git/source.js';
export { isGitSource, redactCredentials, redactSource } from './skills/git/spec.js';
export type { InstallableSkill, InstallOptions, InstallOutcome, InstallProgress, SkillFile } from './skills/install/install.js';
export { chooseByName, chooseSkills, installSkills } from './skills/install/install.js';
export type { Issue, Severity } from './skills/load/issues.js';
export { formatIssue } from './skills/load/issues.js';
export type { CataloguePage, CataloguePageOptions, PageReply, PageRequest } from './skills/page/page-route.js';
export { cataloguePage } from './skills/page/page-route.js';
export type { SkillsFolder, SkillsFolderOptions } from './skills/provider.js';
export { loadSkillsFolder, SKILL_FILE_TEMPLATE } from './skills/provider.js';
export type { DiscoveryOptions, DiscoveryReply, DiscoveryRequest, DiscoveryRoute, PublishedFolder } from './skills/publish/discovery-routes.js';
export { DISCOVERY_PREFIX, discoveryRoutes } from './skills/publish/discovery-routes.js';
export { isIndexSource } from './skills/remote/index-document.js';
export type { IndexSkillsFolder, IndexSkillsOptions, IndexSyncResult } from './skills/remote/index-source.js';
export { loadIndexSkills } from './skills/remote/index-source.js';
export type { SkillSurface, UseListener } from './skills/usage.js';
export { usageNames } from './skills/usage.js';
