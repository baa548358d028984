/**
 * `skillport serve --name --title --instructions --no-tools`: how the server presents
 * itself, so two configured skillport servers can be told apart in a client.
 * Over a real stdio pipe, as a client sees it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, initialize, RawStdioClient, ROOT } from '../_stdio-client.js';
import { type Message, modern } from '../_wire.js';
import { runCli } from './_run.js';

const VALID = `${ROOT}test/fixtures/skills/valid`;
const DEFAULT_INSTRUCTIONS =
  'This server has Agent Skills: instructions for particular kinds of task, with the files they use. ' +
  "The load_skill tool's description lists them (its query input searches them when there are many). " +
  'When a task matches a skill, call load_skill with its name before starting and follow what it says; ' +
  'read the files it names with read_skill_file. The skills are also prompts, and every skill file is a resource under skill://<skill>/<path>.';
const NO_TOOLS_INSTRUCTIONS = 'Agent Skills served as prompts; every skill file is also a resource under skill://<skill>/<path>.';

let client: RawStdioClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** serverInfo and instructions from initialize (2025-11-25) and from server/discover (2026-07-28), and the capabilities declared. */
async function identity(...flags: string[]): Promise<{ initialized: Message; discovered: Message; capabilities: Message }> {
  client = RawStdioClient.spawn(BIN, ['serve', VALID, '--log-level', 'silent', ...flags]);
  const discover = (await client.request('server/discover', modern())).result;
  const init = (await initialize(client, '2025-11-25')).result;
  // 2026-07-28 also declares the Skills extension; tools are declared alike in both eras.
  expect(discover.capabilities.tools).toEqual(init.capabilities.tools);
  return {
    initialized: { serverInfo: init.serverInfo, instructions: init.instructions },
    discovered: { serverInfo: discover._meta['io.modelcontextprotocol/serverInfo'], instructions: discover.instructions },
    capabilities: init.capabilities,
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

  it('presents itself as skillport by default, with the skill tools and instructions that say how to load a skill', async () => {
    const { initialized, discovered, capabilities } = await identity();
    const expected = { serverInfo: { name: 'skillport', title: 'skillport', version: expect.any(String) }, instructions: DEFAULT_INSTRUCTIONS };
    expect(initialized).toEqual(expected);
    expect(discovered).toEqual(expected);
    expect(capabilities.tools).toEqual({ listChanged: true });
  });

  it('serves no tools capability with --no-tools, and instructions that do not mention them', async () => {
    const { initialized, capabilities } = await identity('--no-tools');
    expect(capabilities).toEqual({ completions: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true } });
    expect(initialized.instructions).toBe(NO_TOOLS_INSTRUCTIONS);
    const c = client as RawStdioClient;
    expect((await c.request('tools/list', {})).error).toMatchObject({ code: -32601 });
    expect((await c.request('tools/list', modern())).error).toMatchObject({ code: -32601 });
  });
});

describe('skillport serve replicas', () => {
  const KEY = 'a shared key of at least thirty-two bytes';
  const BUNDLED = `${ROOT}skills`;
  const ask = (capabilities: Message) => ({
    name: 'code-review',
    arguments: { focus: 'security' },
    _meta: { ...modern()._meta, 'io.modelcontextprotocol/clientCapabilities': capabilities },
  });

  it('take each other’s input-required retries when they share SKILLPORT_REQUEST_STATE_KEY, and only then', async () => {
    const start = (key: string) => RawStdioClient.spawn(BIN, ['serve', BUNDLED, '--log-level', 'silent'], { SKILLPORT_REQUEST_STATE_KEY: key });
    const first = start(KEY);
    const second = start(KEY);
    const stranger = start(`another key, also thirty-two bytes long`);
    try {
      const asked = (await first.request('prompts/get', ask({ elicitation: {} }))).result;
      expect(asked.resultType).toBe('input_required');
      const retry = {
        ...ask({ elicitation: {} }),
        inputResponses: { prompt_arguments: { action: 'accept', content: { language: 'go' } } },
        requestState: asked.requestState,
      };
      const done = (await second.request('prompts/get', retry)).result;
      expect(done.resultType).toBe('complete');
      expect(JSON.stringify(done.messages)).toContain('go');
      expect((await stranger.request('prompts/get', retry)).error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    } finally {
      await Promise.all([first.close(), second.close(), stranger.close()]);
    }
  });

  it('stops with a plain message, and no password, when --redis is not a Redis URL or Redis is out of reach', async () => {
    const bad = await runCli('serve', BUNDLED, '--http', '127.0.0.1:0', '--redis', 'http://user:hunter2@127.0.0.1:6379');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('the Redis URL must look like redis://');
    // Port 1 on loopback: nothing listens there, so the connection is refused at once, every retry.
    const away = await runCli('serve', BUNDLED, '--http', '127.0.0.1:0', '--log-level', 'silent', '--redis', 'redis://user:hunter2@127.0.0.1:1');
    expect(away.code).toBe(1);
    expect(away.stderr).toBe('skillport serve: Redis at 127.0.0.1:1 is out of reach\n');
    expect(bad.stderr + away.stderr).not.toContain('hunter2');
  });

  it('refuses a key shorter than 32 bytes', async () => {
    client = RawStdioClient.spawn(BIN, ['serve', BUNDLED, '--log-level', 'silent'], { SKILLPORT_REQUEST_STATE_KEY: 'short' });
    const exit = await client.exited;
    expect(exit.code).toBe(1);
    expect(client.stderr).toContain('requestStateKey must be at least 32 bytes');
  });
});

describe('skillport serve load_skill', () => {
  it('asks the user for a skill’s missing required argument when the client can elicit, and leaves it to the model otherwise', async () => {
    client = RawStdioClient.spawn(BIN, ['serve', `${ROOT}skills`, '--log-level', 'silent']);
    const meta = (capabilities: Message) => ({ ...modern()._meta, 'io.modelcontextprotocol/clientCapabilities': capabilities });
    const call = { name: 'load_skill', arguments: { name: 'code-review' } };
    const asked = (await client.request('tools/call', { ...call, _meta: meta({ elicitation: {} }) })).result;
    expect(asked.resultType).toBe('input_required');
    expect(Object.keys(asked.inputRequests.prompt_arguments.params.requestedSchema.properties)).toEqual(['language']);
    const done = (
      await client.request('tools/call', {
        ...call,
        _meta: meta({ elicitation: {} }),
        inputResponses: { prompt_arguments: { action: 'accept', content: { language: 'go' } } },
        requestState: asked.requestState,
      })
    ).result;
    expect(done.isError).toBeUndefined();
    expect(done.content[0].text).toContain('go');
    // A client that cannot be asked: the skill, with a note of what the model is to fill in.
    const named = (await client.request('tools/call', { ...call, _meta: meta({}) })).result;
    expect(named.isError).toBeUndefined();
    expect(named.content[0].text).toContain('- language (required, not given): Main programming language of the change; suggested values: c, cpp');
    expect(named.content[1].text).toContain('written mainly in **{{language}}**');
  });
});
