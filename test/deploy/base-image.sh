#!/usr/bin/env bash
# A stand-in for node:20-bookworm-slim, built from Debian's packages and this
# machine's own Node, for test/deploy/image.test.ts where no image registry is
# reachable. It has the layout the Dockerfile expects of its base: Debian
# bookworm (minbase) with apt, node at /usr/local/bin/node, npm at
# /usr/local/lib/node_modules/npm linked from /usr/local/bin/npm, and dpkg
# told to leave out documentation, manuals and translations as Debian's slim
# images do (so packages installed on top are measured as they would be there).
#
# Usage: [NODE_BIN=PATH] test/deploy/base-image.sh [TAG]   (default skillport-test-base:node20)
# Does nothing when TAG exists already. Needs root, debootstrap and a Docker
# engine. The Debian mirror is the one apt on this machine uses; DEBIAN_MIRROR
# overrides it.
set -euo pipefail

tag="${1:-skillport-test-base:node20}"
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "base image $tag exists"
  exit 0
fi

# The mirror apt is configured with: deb822 sources first, then sources.list.
mirror="${DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  mirror="$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)"
fi
if [ -z "$mirror" ]; then
  mirror="$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }' /etc/apt/sources.list 2>/dev/null || true)"
fi
[ -n "$mirror" ] || { echo "no Debian mirror in /etc/apt/sources.list*; set DEBIAN_MIRROR" >&2; exit 1; }

# The Node that runs the tests (NODE_BIN, from image.test.ts): under npm, `node` on PATH may be
# node_modules/.bin/node, the Node 22 that the conformance suite's devDependency brings.
node_bin="$(readlink -f "${NODE_BIN:-$(command -v node)}")"
[ "$("$node_bin" -p 'process.versions.node.split(".")[0]')" = 20 ] || { echo "$node_bin is not Node 20" >&2; exit 1; }
npm_dir="$(dirname "$node_bin")/../lib/node_modules/npm"
[ -f "$npm_dir/bin/npm-cli.js" ] || npm_dir="$(npm root -g)/npm"
[ -f "$npm_dir/bin/npm-cli.js" ] || { echo "no npm beside $node_bin" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/skillport-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"

echo "debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 || {
  tail -n 30 "$work/debootstrap.log" >&2
  exit 1
}

# No documentation, manuals or translations from packages installed later (as Debian's slim images).
cat >"$rootfs/etc/dpkg/dpkg.cfg.d/excludes" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/locale/*
EOF
# ...nor from those installed now; apt's lists and caches are fetched again by whoever installs.
find "$rootfs/usr/share/doc" -mindepth 1 ! -name copyright ! -type d -delete
find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$rootfs"/usr/share/{man,groff,info,lintian,locale}/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/* \
  "$rootfs"/var/cache/debconf/*-old "$rootfs"/var/log/* "$rootfs"/tmp/*

# Node and npm where the official node images have them.
install -D -m 0755 "$node_bin" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/lib/node_modules"
cp -a "$npm_dir" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

# Every library node links against must be in the rootfs.
missing=""
for lib in $(ldd "$node_bin" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
  [ -e "$rootfs$lib" ] || [ -e "$rootfs$(readlink -f "$lib")" ] || missing="$missing $lib"
done
[ -z "$missing" ] || { echo "libraries node needs are not in the rootfs:$missing" >&2; exit 1; }
chroot "$rootfs" /usr/bin/env -i /usr/local/bin/node -e 'process.exit(0)' || { echo "node does not run in the rootfs" >&2; exit 1; }

tar -C "$rootfs" --numeric-owner -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$("$node_bin" -p 'process.versions.node')" \
  --change 'CMD ["node"]' \
  - "$tag" >/dev/null
echo "built base image $tag"
