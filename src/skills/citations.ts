/**
 * Rewrites citations of reference documents inside a skill's text to the
 * names of the prompts that serve them, path only: `see references/forms.md`
 * becomes `see pdf-references-forms`, and the surrounding prose is untouched.
 */

/** Maps a cited path to a prompt name: `local` for `references/<slug>.md`, `shared` for `../references/<slug>.md`. */
export interface CitationTargets {
  local: ReadonlyMap<string, string>;
  shared: ReadonlyMap<string, string>;
}

// A path token: not preceded by a path character, not followed by one.
const CITATION = /(?<![\w./-])(\.\.\/|\.\/)?references\/([\w.-]+?)\.md(?![\w/-])/g;

/** Rewrites every citation whose target is known; unknown ones stay as written. */
export function rewriteCitations(text: string, targets: CitationTargets): string {
  if (targets.local.size === 0 && targets.shared.size === 0) return text;
  return text.replace(CITATION, (whole, up: string | undefined, slug: string) => {
    const name = up === '../' ? targets.shared.get(slug) : (targets.local.get(slug) ?? targets.shared.get(slug));
    return name ?? whole;
  });
}
