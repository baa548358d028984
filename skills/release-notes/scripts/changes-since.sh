#!/bin/sh
# Lists the commits a release note has to cover: everything since the previous
# release, merge commits left out, one tab-separated line per commit:
#
#   <short hash> <TAB> <author> <TAB> <subject> <TAB> <pull request number or ->
#
# then the full bodies of the commits that mention a breaking change.
#
# Usage: scripts/changes-since.sh [SINCE]
#   SINCE  a tag or commit; defaults to the latest tag reachable from HEAD.
#          With no tag at all, the whole history is listed.
# It only reads the repository; it changes nothing.
set -eu

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "changes-since: not inside a git repository" >&2
  exit 2
fi

since="${1:-}"
if [ -z "$since" ]; then
  since=$(git describe --tags --abbrev=0 2>/dev/null || true)
fi

if [ -n "$since" ]; then
  if ! git rev-parse --verify --quiet "$since^{commit}" >/dev/null; then
    echo "changes-since: unknown tag or commit '$since'" >&2
    exit 2
  fi
  range="$since..HEAD"
  echo "# Range: $range ($(git rev-list --count --no-merges "$range") commits, merges left out)"
else
  range="HEAD"
  echo "# Range: the whole history (no tag found; pass the previous release as an argument)"
fi
echo "# hash	author	subject	pr"

# The pull request number comes from a trailing "(#123)" in squash-merge
# subjects, as GitHub writes them; "-" when there is none.
git log --no-merges --format='%h%x09%an%x09%s' "$range" | awk -F '\t' '{
  pr = "-"
  if (match($3, /\(#[0-9]+\)$/)) pr = substr($3, RSTART + 2, RLENGTH - 3)
  print $1 "\t" $2 "\t" $3 "\t" pr
}'

# Bodies that announce a breaking change, in full, so they can be described
# accurately. Subjects with "!" before the colon count too.
breaking=$(git log --no-merges --format='%h' -E -i --grep='BREAKING[ -]CHANGE' "$range")
bang=$(git log --no-merges --format='%h %s' "$range" | awk '$2 ~ /^[a-z]+(\([^)]*\))?!:/ { print $1 }')
hashes=$(printf '%s\n%s\n' "$breaking" "$bang" | awk 'NF && !seen[$0]++')
if [ -n "$hashes" ]; then
  echo
  echo "# Breaking changes (full messages):"
  for hash in $hashes; do
    echo
    git log -n 1 --format='## %h %s%n%n%b' "$hash"
  done
fi
