/**
 * A skills folder whose skills and prompt files are restricted to audiences
 * (`metadata.audience`), written to a temporary folder, optionally without
 * some of them: what a caller sees of the whole folder must be exactly what
 * it would see of a folder without what it may not use.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Path → content; a skill is its folder's files. */
const FILES: Record<string, string> = {
  'public-notes/SKILL.md': '---\nname: public-notes\ndescription: Notes anyone on any team may read.\n---\nRead the notes.\n',
  'alpha-playbook/SKILL.md':
    '---\nname: alpha-playbook\ndescription: The alpha team playbook for releases.\nmetadata:\n  audience: team:a\n---\nFollow [the guide](references/guide.md).\n',
  'alpha-playbook/references/guide.md': '# Alpha guide\n\nShip on Tuesdays.\n',
  'alpha-playbook/scripts/release.sh': 'echo alpha\n',
  'beta-runbook/SKILL.md':
    '---\nname: beta-runbook\ndescription: The beta team runbook for incidents.\nmetadata:\n  audience: team:b\n---\nSee [the plan](references/secret-plan.md).\n',
  'beta-runbook/references/secret-plan.md': '# Beta plan\n\nPage the on-call.\n',
  'shared-style/SKILL.md':
    '---\nname: shared-style\ndescription: The writing style both teams share.\nmetadata:\n  audience: "team:a, team:b"\n---\nWrite plainly.\n',
  'prompts/alpha-standup.md': '---\ndescription: The alpha stand-up.\nmetadata:\n  audience: team:a\n---\nSummarise yesterday for alpha.\n',
  'prompts/beta-retro.md': '---\ndescription: The beta retro.\nmetadata:\n  audience: team:b\n---\nWhat went well for beta?\n',
  // An open skill holding a team b skill: its files are outer's in outer's manifest, but inner's to see.
  'outer/SKILL.md': '---\nname: outer\ndescription: An open skill with parts.\n---\nSee the parts.\n',
  'outer/parts/notes.md': '# Notes\n\nOpen to all.\n',
  'outer/parts/inner/SKILL.md':
    '---\nname: inner\ndescription: The beta parts checklist.\nmetadata:\n  audience: team:b\n---\nCheck [the torque](references/torque.md).\n',
  'outer/parts/inner/references/torque.md': '# Torque\n\nTorque to 12 Nm.\n',
};

/** What team a (scope team:a) may not use, and team b. */
export const HIDDEN_FROM_A = ['beta-runbook/', 'prompts/beta-retro.md', 'outer/parts/inner/'];
export const HIDDEN_FROM_B = ['alpha-playbook/', 'prompts/alpha-standup.md'];

/** Writes the folder without the paths starting with one of `leaveOut`; returns it and how to remove it. */
export function writeFolder(leaveOut: readonly string[] = []): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-audience-'));
  for (const [path, content] of Object.entries(FILES)) {
    if (leaveOut.some((prefix) => path.startsWith(prefix))) continue;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
