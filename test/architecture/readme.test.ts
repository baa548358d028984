import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';

const readme = readFileSync(`${ROOT}README.md`, 'utf8');

describe('README', () => {
  it('starts with the command that serves and the command that tests', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const lines = firstBlock.trim().split('\n');
    expect(lines[0]).toMatch(/node bin\/skillport\.js serve/);
    expect(lines[1]).toMatch(/npm test/);
  });

  it('gives client configurations that parse and that run without a published package', () => {
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      const config = JSON.parse(block) as Record<string, Record<string, { command?: string; args?: string[] }>>;
      for (const server of Object.values(config.mcpServers ?? config.servers ?? {})) {
        // skillport is not on the registry yet: `npx -y skillport` is a 404 for whoever pastes it.
        expect(server.command === 'npx' && server.args?.includes('skillport'), block).toBe(false);
      }
    }
  });

  it.each(['quick-start.ts', 'skills-server.ts', 'long-task.ts', 'tool.ts', 'resources.ts'])('shows examples/%s exactly as the type-checked file', (file) => {
    const example = readFileSync(`${ROOT}examples/${file}`, 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
