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

  it.each(['quick-start.ts', 'skills-server.ts'])('shows examples/%s exactly as the type-checked file', (file) => {
    const example = readFileSync(`${ROOT}examples/${file}`, 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });
});
