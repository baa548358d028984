/**
 * The force-push revert as a client sees it, over any transport: a commit B
 * pushed over A, then the branch forced back to A; once the server says it
 * serves A again, A's prompt and file are read through the client.
 */
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import { type createRepo, skillMd } from './_repo.js';

/** The files of commit A (the repository's first) and of commit B. */
export const VERSION_A = { 'alpha/SKILL.md': skillMd('alpha', 'Version A.'), 'alpha/notes.md': 'notes of A\n' };
const VERSION_B = { 'alpha/SKILL.md': skillMd('alpha', 'Version B.'), 'alpha/notes.md': 'notes of B\n' };

/** Polls `check` every 50 ms, 15 s at most: the expectation after it fails if it never held. */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Pushes B, waits until the server's `log` says it serves it, forces the
 * branch back to A and waits until the log says A is served again; then
 * reads A's prompt and notes three times through `client`, and expects
 * nothing in the log that says something failed.
 */
export async function revertAndRead(r: ReturnType<typeof createRepo>, log: () => string, client: ClientV1): Promise<void> {
  const servedA = () => log().split(`at commit ${r.first.slice(0, 12)}`).length - 1;
  const b = r.push(VERSION_B);
  await until(() => log().includes(`at commit ${b.slice(0, 12)}`));
  expect(log()).toContain(`at commit ${b.slice(0, 12)}`);
  const before = servedA();
  r.force(r.first);
  await until(() => servedA() > before);
  expect(servedA()).toBe(before + 1);
  for (let i = 0; i < 3; i++) {
    expect((await client.getPrompt({ name: 'alpha' })).messages[0]?.content).toMatchObject({ text: expect.stringContaining('Version A.') });
    expect((await client.readResource({ uri: 'skill://alpha/notes.md' })).contents[0]).toMatchObject({ text: 'notes of A\n' });
  }
  expect(log()).not.toMatch(/error|failed|not served|\n\s+at /i);
}
