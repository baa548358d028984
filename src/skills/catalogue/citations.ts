/**
 * Rewrites citations of reference documents inside a skill's text to the
 * names of the prompts that serve them, path only, and says where the file
 * itself can be read: `see references/forms.md` becomes `see
 * pdf-references-forms (skill://pdf/references/forms.md)`, a Markdown link
 * `[forms](references/forms.md)` points at the `skill://` URI, and the
 * surrounding prose is untouched. A model that cannot get prompts can still
 * read the resource.
 */

/** Maps a cited path to a prompt name: `local` for `references/<slug>.md`, `shared` for `../references/<slug>.md`. */
export interface CitationTargets {
  local: ReadonlyMap<string, string>;
  shared: ReadonlyMap<string, string>;
  /** The resource URI of each `local` document (shared ones are in no skill, so have none). */
  uris?: ReadonlyMap<string, string>;
}

// A path token: not preceded by a path character, not followed by one.
const CITATION = /(?<![\w./-])(\.\.\/|\.\/)?references\/([\w.-]+?)\.md(?![\w/-])/g;

/** Rewrites every citation whose target is known; unknown ones stay as written. */
export function rewriteCitations(text: string, targets: CitationTargets): string {
  if (targets.local.size === 0 && targets.shared.size === 0) return text;
  return text.replace(CITATION, (whole, up: string | undefined, slug: string, at: number) => {
    const local = up === '../' ? undefined : targets.local.get(slug);
    if (local === undefined) return targets.shared.get(slug) ?? whole;
    const uri = targets.uris?.get(slug);
    if (uri === undefined) return local;
    // A link target takes the URI alone, so the link still works.
    return text[at - 1] === '(' && text[at - 2] === ']' ? uri : `${local} (${uri})`;
  });
}
