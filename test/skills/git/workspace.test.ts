/**
 * The workspace's git commands on their own, given specs the parser would
 * refuse: what reaches git's command line after the options can never be
 * read as one, even if a rule of the parser slipped.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGitSpec } from '../../../src/skills/git/spec.js';
import { DEFAULT_MAX_CHECKOUT_BYTES } from '../../../src/skills/git/tree-limits.js';
import { createWorkspace } from '../../../src/skills/git/workspace.js';
import { createRepo, GIT, skillMd } from './_repo.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LIMITS = { maxFileBytes: 1024 * 1024, maxEntries: 1000, maxBytes: DEFAULT_MAX_CHECKOUT_BYTES };

describe('the workspace of a git source', () => {
  it('hands git the ref after --end-of-options: a ref that is a flag is a refspec, never an option', async () => {
    const r = createRepo({ 'alpha/SKILL.md': skillMd('alpha', 'Good.') });
    cleanups.push(() => r.remove());
    const marker = join(r.dir, 'upload-pack-ran');
    // What git would run as the remote's upload-pack if it took the ref for its --upload-pack option.
    const program = join(r.dir, 'upload-pack');
    writeFileSync(program, `#!/bin/sh\ntouch ${marker}\nexec ${GIT} upload-pack "$@"\n`, { mode: 0o755 });
    const runner = { program: GIT, timeoutMs: 20_000, env: r.env };
    for (const ref of [`--upload-pack=${program}`, '--recurse-submodules', '-v']) {
      // As if the parser's ref rule had let it through.
      const spec = { ...parseGitSpec(`git+${r.url}#main`), ref };
      const workspace = await createWorkspace(spec, r.cache, runner, LIMITS);
      cleanups.push(() => workspace.remove());
      // Looked for as a ref, and not found.
      await expect(workspace.fetch(), ref).rejects.toThrow(/no branch, tag or commit|git fetch failed/);
      expect(existsSync(marker), ref).toBe(false);
    }
  });
});
