#!/bin/sh
# Prints what a code review has to cover in a git repository: the base it
# compares against, the commits since that base, and every changed file
# (committed or not) with added and removed line counts, largest first.
#
# Usage: scripts/review-scope.sh [BASE]
#   BASE  a branch, tag or commit; defaults to the first that exists of
#         origin/main, origin/master, main, master.
# Run it from anywhere inside the repository. It only reads; it changes nothing.
set -eu

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "review-scope: not inside a git repository" >&2
  exit 2
fi

base="${1:-}"
if [ -z "$base" ]; then
  for candidate in origin/main origin/master main master; do
    if git rev-parse --verify --quiet "$candidate^{commit}" >/dev/null; then
      base="$candidate"
      break
    fi
  done
fi
if [ -z "$base" ]; then
  echo "review-scope: no base given and none of origin/main, origin/master, main, master exists" >&2
  echo "usage: review-scope.sh [BASE]" >&2
  exit 2
fi
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "review-scope: unknown base '$base'" >&2
  exit 2
fi

# Compare with the merge base, so changes made on the base branch since this
# branch forked are not mistaken for part of the change under review.
merge_base=$(git merge-base HEAD "$base")

echo "Base: $base (merge base $(git rev-parse --short "$merge_base"))"
echo
echo "Commits since the merge base:"
if [ -z "$(git rev-list "$merge_base..HEAD")" ]; then
  echo "  (none)"
else
  git log --no-decorate --format='  %h %s (%an)' "$merge_base..HEAD"
fi
echo
echo "Changed files, committed and uncommitted (added, removed, path), largest first:"
# --numstat prints "-" for binary files; sort puts them last.
git diff --numstat "$merge_base" \
  | awk -F '\t' '{ total = ($1 == "-" ? -1 : $1 + $2); print total "\t" $0 }' \
  | sort -t "$(printf '\t')" -k1,1nr \
  | cut -f 2- \
  | awk -F '\t' '{ if ($1 == "-") printf "  %-15s %s\n", "binary", $3; else printf "  +%-6s -%-6s %s\n", $1, $2, $3 }'
echo
git diff --shortstat "$merge_base" | sed 's/^ */Total: /'

untracked=$(git ls-files --others --exclude-standard)
if [ -n "$untracked" ]; then
  echo
  echo "Untracked files (not in the diff above; review them too if they belong to the change):"
  echo "$untracked" | sed 's/^/  /'
fi
