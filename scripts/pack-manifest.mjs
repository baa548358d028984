// The package.json that `npm pack` and `npm publish` put in the tarball: the
// project's own, without `scripts.prepare`. `prepare` builds dist/ when a clone
// runs `npm ci`; a package made by `npm pack` holds dist/ already, yet npm lists
// a `prepare` among the install scripts to approve when the package is
// installed from a tarball file or a git source ("install scripts not yet
// covered by allowScripts"), though it never runs it for a tarball.
//
//   node scripts/pack-manifest.mjs strip     (prepack) keeps package.json's bytes aside, writes it without prepare
//   node scripts/pack-manifest.mjs restore   (postpack) puts the bytes back
//
// A pack stopped between the two leaves the copy (package.json.unpacked, never
// committed, never packed): the next strip, or a restore, puts it back first.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url));
const KEPT = `${MANIFEST}.unpacked`;

function restore() {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
}

function strip() {
  restore();
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  if (manifest.scripts?.prepare === undefined) return;
  writeFileSync(KEPT, text);
  delete manifest.scripts.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

const command = process.argv[2];
if (command === 'strip') strip();
else if (command === 'restore') restore();
else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
