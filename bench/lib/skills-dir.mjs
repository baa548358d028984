// Folders of generated SKILL.md files under the temporary directory, for the
// cold-start and reload phases.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { skillFile, skillName } from './promptset.mjs';

export function skillFolders(root = join(os.tmpdir(), `skillport-bench-${process.pid}`)) {
  return {
    root,
    /** DIR/skill-NNNNN/SKILL.md for `count` skills, made once per run. */
    make(count) {
      const dir = join(root, `skills-${count}`);
      let bytes = 0;
      if (existsSync(dir)) {
        for (let i = 0; i < count; i++) bytes += statSync(join(dir, skillName(i), 'SKILL.md')).size;
        return { dir, bytes };
      }
      mkdirSync(dir, { recursive: true });
      for (let i = 0; i < count; i++) {
        mkdirSync(join(dir, skillName(i)));
        const text = skillFile(i);
        writeFileSync(join(dir, skillName(i), 'SKILL.md'), text);
        bytes += Buffer.byteLength(text);
      }
      return { dir, bytes };
    },
    /** Rewrites skill `i`'s SKILL.md with a new description. */
    rewrite(dir, i, description) {
      const text = skillFile(i).replace(/^description: .*$/m, `description: ${description}`);
      writeFileSync(join(dir, skillName(i), 'SKILL.md'), text);
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
