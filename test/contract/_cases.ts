/**
 * The contract: behavioural cases written once and run on every transport
 * (`contractSuite(transport)`), on a session revision (2025-06-18,
 * 2025-11-25: `initialize`, then requests in that session) and on the
 * stateless one (2026-07-28: each request carries the `_meta` envelope with
 * the protocol version and client capabilities). A case asserts the JSON-RPC
 * messages only, exactly; what a transport adds (statuses, headers, framing)
 * its adapter asserts. Where the revisions differ (ping, a missing resource,
 * how change notifications arrive), the case says so by revision, never by
 * transport.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../_http-client.js';
import { type RevisionName, schemaErrors } from '../_schema.js';
import type { Message } from '../_wire.js';
import { Conversation } from './_conversation.js';
import { CAPABILITIES, type ContractServer, createContractServer, PROMPT_NAMES, SERVER_INFO } from './_server.js';
import type { ContractPeer, ContractTransport } from './_transport.js';

const REVISIONS: readonly RevisionName[] = ['2025-06-18', '2025-11-25', '2026-07-28'];

/** The schema definition of an error response in `revision`. */
function errorDefinition(revision: RevisionName): string {
  return revision === '2025-06-18' ? 'JSONRPCError' : 'JSONRPCErrorResponse';
}

function expectValid(revision: RevisionName, definition: string, value: unknown): void {
  expect(schemaErrors(revision, definition, value), `${definition}: ${JSON.stringify(value)}`).toEqual([]);
}

/** The contract, run once per revision on `transport`. */
export function contractSuite(transport: ContractTransport): void {
  describe.each(REVISIONS)(`${transport.name}, %s`, (revision) => {
    let fixture: ContractServer;
    let peer: ContractPeer | undefined;
    afterEach(async () => {
      await peer?.close();
      peer = undefined;
    });

    /** Serves a fresh server and opens a conversation with it. */
    async function start(): Promise<{ c: Conversation; opening: Message }> {
      fixture = createContractServer();
      peer = await transport.connect(fixture.server);
      const c = new Conversation(revision, peer);
      return { c, opening: await c.open() };
    }

    it('introduces the server: initialize in a session, server/discover statelessly', async () => {
      const { c, opening } = await start();
      if (c.stateless) {
        c.success('server/discover', opening, { supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'], capabilities: CAPABILITIES });
      } else {
        c.success('initialize', opening, { protocolVersion: revision, capabilities: CAPABILITIES, serverInfo: SERVER_INFO });
      }
    });

    it('answers ping in a session; 2026-07-28 removed it', async () => {
      const { c } = await start();
      const response = await c.request('ping');
      if (c.stateless) c.failure(response, { code: -32601, message: 'Method not found: ping', data: { method: 'ping' } });
      else c.success('ping', response, {});
    });

    it('lists the prompts page by page, and refuses a cursor it did not give', async () => {
      const { c } = await start();
      const pages: Message[] = [];
      let cursor: string | undefined;
      do {
        const response = await c.request('prompts/list', cursor === undefined ? {} : { cursor });
        expect(response.result, JSON.stringify(response)).toBeDefined();
        pages.push(response.result);
        cursor = response.result.nextCursor;
      } while (cursor !== undefined && pages.length < 10);
      expect(pages.map((page) => page.prompts.length)).toEqual([2, 2, 1]);
      expect(pages.flatMap((page) => page.prompts.map((prompt: Message) => prompt.name))).toEqual(PROMPT_NAMES);
      expect(pages[0]?.prompts[0]).toEqual({
        name: 'code_review',
        title: 'Code review',
        description: 'Review code in a given language.',
        arguments: [
          { name: 'language', description: 'Language of the code', required: true },
          { name: 'code', description: 'The code to review', required: true },
        ],
      });
      const last = await c.request('prompts/list', { cursor: pages[1]?.nextCursor });
      c.success('prompts/list', last, { prompts: [{ name: 'wait', description: 'Waits until cancelled.' }] });

      const refused = await c.request('prompts/list', { cursor: 'not-a-cursor' });
      c.failure(refused, { code: -32602, message: 'Invalid cursor', data: { cursor: 'not-a-cursor' } });
    });

    it('gets prompts with their arguments, in each shape get may return', async () => {
      const { c } = await start();
      const review = await c.request('prompts/get', { name: 'code_review', arguments: { language: 'go', code: 'x := 1' } });
      c.success('prompts/get', review, {
        messages: [{ role: 'user', content: { type: 'text', text: 'Review this go code for bugs and clarity:\n\nx := 1' } }],
      });
      const translate = await c.request('prompts/get', { name: 'translate', arguments: { text: 'Bonjour', to: 'german' } });
      c.success('prompts/get', translate, {
        messages: [
          { role: 'user', content: { type: 'text', text: 'Translate into german:' } },
          { role: 'user', content: { type: 'text', text: 'Bonjour' } },
        ],
      });
      const summarize = await c.request('prompts/get', { name: 'summarize', arguments: { text: 'a long text' } });
      c.success('prompts/get', summarize, {
        description: 'A summary request',
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: a long text' } }],
      });
      const standup = await c.request('prompts/get', { name: 'standup' });
      c.success('prompts/get', standup, { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise what I did yesterday.' } }] });
    });

    it('refuses an unknown prompt with -32602', async () => {
      const { c } = await start();
      const response = await c.request('prompts/get', { name: 'no_such_prompt' });
      c.failure(response, { code: -32602, message: 'Unknown prompt: "no_such_prompt"', data: { name: 'no_such_prompt' } });
    });

    it('refuses a missing required argument with -32602 naming it, before the prompt runs', async () => {
      const { c } = await start();
      const response = await c.request('prompts/get', { name: 'code_review', arguments: { language: 'go' } });
      c.failure(response, {
        code: -32602,
        message: 'Missing required argument "code" for prompt "code_review"',
        data: { name: 'code_review', argument: 'code' },
      });
    });

    it('answers -32601 for a method it does not serve', async () => {
      const { c } = await start();
      for (const method of ['tools/list', 'no/such/method']) {
        c.failure(await c.request(method), { code: -32601, message: `Method not found: ${method}`, data: { method } });
      }
    });

    it('completes prompt arguments from a fixed list and from a function', async () => {
      const { c } = await start();
      const listed = await c.request('completion/complete', { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 'py' } });
      c.success('completion/complete', listed, { completion: { values: ['python'], total: 1, hasMore: false } });
      const computed = await c.request('completion/complete', { ref: { type: 'ref/prompt', name: 'translate' }, argument: { name: 'to', value: 'fr' } });
      c.success('completion/complete', computed, { completion: { values: ['french'] } });
    });

    it('lists and reads resources, by URI and by template; a missing one is refused as the revision says', async () => {
      const { c } = await start();
      c.success('resources/list', await c.request('resources/list'), {
        resources: [{ uri: 'docs://readme', name: 'readme', description: 'The read-me.', mimeType: 'text/markdown' }],
      });
      c.success('resources/read', await c.request('resources/read', { uri: 'docs://readme' }), {
        contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' }],
      });
      c.success('resources/read', await c.request('resources/read', { uri: 'docs://pages/7' }), {
        contents: [{ uri: 'docs://pages/7', mimeType: 'text/plain', text: 'Page 7' }],
      });
      const missing = await c.request('resources/read', { uri: 'docs://nowhere' });
      // Resource not found: -32002 before 2026 (SHOULD), -32602 in 2026-07-28 (MUST).
      c.failure(missing, { code: c.stateless ? -32602 : -32002, message: 'Resource not found: docs://nowhere', data: { uri: 'docs://nowhere' } });
    });

    it('lists resource templates', async () => {
      const { c } = await start();
      c.success('resources/templates/list', await c.request('resources/templates/list'), {
        resourceTemplates: [{ uriTemplate: 'docs://pages/{page}', name: 'page', description: 'A page by number.', mimeType: 'text/plain' }],
      });
    });

    it('answers invalid JSON with -32700 and id null, and keeps serving', async () => {
      const { c } = await start();
      const answer = await c.peer.sendText('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(answer).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid JSON' } });
      c.success('prompts/get', await c.request('prompts/get', { name: 'standup' }), {
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise what I did yesterday.' } }],
      });
    });

    it('answers an invalid request with -32600, with its id when it has a readable one, and keeps serving', async () => {
      const { c } = await start();
      const batch = await c.peer.sendText(JSON.stringify([c.message('prompts/list')]));
      expect(batch).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: Batch requests are not supported' } });
      const noMethod = await c.peer.sendText(JSON.stringify({ jsonrpc: '2.0', id: 'bad', method: 5, params: c.params() }));
      expect(noMethod).toEqual({ jsonrpc: '2.0', id: 'bad', error: { code: -32600, message: 'Invalid request: The method member must be a string' } });
      const completed = await c.request('completion/complete', {
        ref: { type: 'ref/prompt', name: 'code_review' },
        argument: { name: 'language', value: 'ru' },
      });
      c.success('completion/complete', completed, { completion: { values: ['rust'], total: 1, hasMore: false } });
    });

    it('cancels a request in flight: the prompt sees it, and nothing is sent for the request', async () => {
      const { c } = await start();
      const request = c.message('prompts/get', { name: 'wait' });
      const pending = c.peer.start(request);
      await eventually(() => fixture.started.includes('wait'), 15_000);
      await pending.cancel(c.notification('notifications/cancelled', { requestId: request.id, reason: 'no longer needed' }));
      await eventually(() => fixture.cancelled.includes('wait'), 15_000);
      // A round trip after the cancellation: anything sent for the request would have come first.
      c.success('prompts/get', await c.request('prompts/get', { name: 'standup' }), {
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise what I did yesterday.' } }],
      });
      expect(await pending.outcome()).toBeUndefined();
    });

    it('tells the client when the prompts change: to the session, or on a listen stream that asked', async () => {
      const { c } = await start();
      const { changes, notification } = await c.watchPrompts();
      fixture.change();
      expect(await changes.waitFor((m) => m.method === 'notifications/prompts/list_changed')).toEqual(notification);
      expect(await c.promptNames()).toEqual([...PROMPT_NAMES, 'added']);
      await changes.close();
    });

    it('sends only messages valid against the schema of the revision', { tags: ['schema'] }, async () => {
      const { c, opening } = await start();
      const results: Array<[string, Message]> = [
        [c.stateless ? 'DiscoverResult' : 'InitializeResult', opening],
        ['ListPromptsResult', await c.request('prompts/list')],
        ['GetPromptResult', await c.request('prompts/get', { name: 'code_review', arguments: { language: 'go', code: 'x' } })],
        ['GetPromptResult', await c.request('prompts/get', { name: 'summarize', arguments: { text: 't' } })],
        [
          'CompleteResult',
          await c.request('completion/complete', { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: '' } }),
        ],
        ['ListResourcesResult', await c.request('resources/list')],
        ['ReadResourceResult', await c.request('resources/read', { uri: 'docs://pages/1' })],
        ['ListResourceTemplatesResult', await c.request('resources/templates/list')],
      ];
      for (const [definition, response] of results) {
        expectValid(revision, c.stateless || revision === '2025-11-25' ? 'JSONRPCResultResponse' : 'JSONRPCResponse', response);
        expectValid(revision, definition, response.result);
      }
      for (const response of [
        await c.request('prompts/get', { name: 'no_such_prompt' }),
        await c.request('prompts/get', { name: 'code_review' }),
        await c.request('tools/list'),
        await c.request('resources/read', { uri: 'docs://nowhere' }),
      ]) {
        expectValid(revision, errorDefinition(revision), response);
      }
      // JSON-RPC 2.0 §5 requires id null for an unreadable request; the MCP schemas type ids as
      // string | number, so the shape is checked with the id substituted.
      const parseError = await c.peer.sendText('{');
      expectValid(revision, errorDefinition(revision), { ...parseError, id: 0 });
    });
  });
}
