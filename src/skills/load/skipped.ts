/**
 * The folders a served folder's walk never enters, shared by the scan and the
 * watcher so that a folder skipped by one is skipped by the other: version
 * control and dependency folders, and hidden folders other than the ones that
 * hold prompts (`.claude/commands`, `.github/prompts`, `.cursor`) or a plugin
 * marketplace (`.claude-plugin/marketplace.json`: an edit reloads the folder).
 */
const SKIPPED = new Set(['.git', 'node_modules', '.hg', '.svn']);
const HIDDEN_ALLOWED = new Set(['.claude', '.github', '.cursor', '.claude-plugin']);

/** Whether the walk skips a folder of this name. */
export function isSkippedFolder(name: string): boolean {
  return SKIPPED.has(name) || (name.startsWith('.') && !HIDDEN_ALLOWED.has(name));
}
