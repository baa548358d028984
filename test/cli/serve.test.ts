/**
 * `skillport serve --name --title --instructions`: how the server presents
 * itself, so two configured skillport servers can be told apart in a client.
 * Over a real stdio pipe, as a client sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, initialize, RawStdioClient, ROOT } from '../_stdio-client.js';
import { type Message, modern } from '../_wire.js';

const VALID = `${ROOT}test/fixtures/skills/valid`;
const DEFAULT_INSTRUCTIONS = 'Agent Skills served as prompts; every skill file is also a resource under skill://<skill>/<path>.';

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** serverInfo and instructions from initialize (2025-11-25) and from server/discover (2026-07-28). */
async function identity(...flags: string[]): Promise<{ initialized: Message; discovered: Message }> {
  client = RawStdioClient.spawn(BIN, ['serve', VALID, '--log-level', 'silent', ...flags]);
  const discover = (await client.request('server/discover', modern())).result;
  const init = (await initialize(client, '2025-11-25')).result;
  return {
    initialized: { serverInfo: init.serverInfo, instructions: init.instructions },
    discovered: { serverInfo: discover._meta['io.modelcontextprotocol/serverInfo'], instructions: discover.instructions },
  };
}

describe('skillport serve identity', () => {
  it('reports --name, --title and --instructions on initialize and discover', async () => {
    const { initialized, discovered } = await identity('--name', 'work-skills', '--title', 'Work skills', '--instructions', 'Use for work.');
    const expected = { serverInfo: { name: 'work-skills', title: 'Work skills', version: expect.any(String) }, instructions: 'Use for work.' };
    expect(initialized).toEqual(expected);
    expect(discovered).toEqual(expected);
  });

  it('titles the server by its --name when no --title is given, and sends no instructions for ""', async () => {
    const { initialized, discovered } = await identity('--name', 'team', '--instructions', '');
    const expected = { serverInfo: { name: 'team', title: 'team', version: expect.any(String) }, instructions: undefined };
    expect(initialized).toEqual(expected);
    expect(discovered).toEqual(expected);
  });

  it('presents itself as skillport by default', async () => {
    const { initialized, discovered } = await identity();
    const expected = { serverInfo: { name: 'skillport', title: 'skillport', version: expect.any(String) }, instructions: DEFAULT_INSTRUCTIONS };
    expect(initialized).toEqual(expected);
    expect(discovered).toEqual(expected);
  });
});
