/**
 * Every progress notification and log message of a fast tool reaches the
 * official SDK clients, v1 (@modelcontextprotocol/sdk) and v2
 * (@modelcontextprotocol/client), over stdio and Streamable HTTP, on each
 * revision the client speaks. Both clients drop a progress notification read
 * in the same chunk as its response (the response removes the progress
 * handler at once, notifications are handled a microtask later), so the
 * server must not write them together (src/transport/stdio/stdout.ts). And
 * nothing is sent for a request once it is answered. The server is
 * test/fixtures/servers/progress.mjs; test/reliability/progress-delivery.mjs
 * measures the same over more calls.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpFixture } from '../_http-client.js';
import { ROOT } from '../_stdio-client.js';
import { PROGRESS_COMBINATIONS } from '../fixtures/progress-combinations.mjs';
import { offering } from './_offering.js';

const FIXTURE = `${ROOT}test/fixtures/servers/progress.mjs`;
/** Calls per combination: without the fix none arrives complete over stdio, so a few calls show it. */
const CALLS = 5;
/**
 * Over stdio only time keeps a notification's read apart from its response's
 * (stdout.ts: nothing acknowledges a notification); on a loaded machine about
 * one call in 2,700 still loses it (test/reliability/progress-delivery.mjs),
 * so a case may be run again. Without the fix every run fails.
 */
const RETRY = 2;
const STEPS = 2;
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

type Sdk = 'v1' | 'v2';
type Wire = 'stdio' | 'http';

/** A v2 stdio transport that probes in the session's own process rather than a sibling. */
class InPlaceStdio extends StdioV2 {}

/** What a client heard: progress values per call, log messages, errors it reported. */
interface Heard {
  logs: string[];
  errors: string[];
  call(count: number): Promise<number[]>;
  late(): Promise<void>;
}

async function connect(sdk: Sdk, wire: Wire, revision: string): Promise<Heard> {
  const modern = revision === '2026-07-28';
  const url = wire === 'http' ? (await startHttpFixture(FIXTURE, ['--http'], closers)).url : undefined;
  const stdio = { command: process.execPath, args: [FIXTURE], stderr: 'ignore' as const };
  const logs: string[] = [];
  const errors: string[] = [];
  const meta = modern ? { _meta: { [LOG_LEVEL_KEY]: 'info' } } : {};
  if (sdk === 'v1') {
    const transport = url ? new HttpV1(url) : new StdioV1(stdio);
    offering(transport, revision);
    const client = new ClientV1({ name: 'progress-v1', version: '1.0.0' });
    client.onerror = (error) => void errors.push(String(error));
    await client.connect(transport);
    closers.push(() => client.close());
    expect(transport instanceof HttpV1 ? transport.protocolVersion : revision).toBe(revision);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await client.setLoggingLevel('info');
    return {
      logs,
      errors,
      async call(count) {
        const seen: number[] = [];
        await client.callTool({ name: 'steps', arguments: { count } }, undefined, { onprogress: (p) => void seen.push(p.progress) });
        return seen;
      },
      late: async () => void (await client.callTool({ name: 'late' })),
    };
  }
  const transport = url ? new HttpV2(url) : new InPlaceStdio(stdio);
  if (!modern) offering(transport, revision);
  const client = new ClientV2({ name: 'progress-v2', version: '2.0.0' }, modern ? { versionNegotiation: { mode: { pin: revision } } } : {});
  client.onerror = (error) => void errors.push(String(error));
  await client.connect(transport);
  closers.push(() => client.close());
  expect(client.getNegotiatedProtocolVersion()).toBe(revision);
  client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
  if (!modern) await client.setLoggingLevel('info');
  return {
    logs,
    errors,
    async call(count) {
      const seen: number[] = [];
      await client.callTool({ name: 'steps', arguments: { count }, ...meta }, { onprogress: (p) => void seen.push(p.progress) });
      return seen;
    },
    late: async () => void (await client.callTool({ name: 'late', ...meta })),
  };
}

describe('a fast tool’s progress and log messages reach the official clients', () => {
  it.each(PROGRESS_COMBINATIONS)(
    'SDK %s over %s on %s: every one, in order, before the result, and none after it',
    { retry: RETRY },
    async (sdk, wire, revision) => {
      const heard = await connect(sdk, wire, revision);
      const expected = Array.from({ length: STEPS }, (_, at) => at + 1);
      let complete = 0;
      for (let call = 0; call < CALLS; call++) {
        const before = heard.logs.length;
        const seen = await heard.call(STEPS);
        // Log messages are not dropped, but must come before the result too.
        expect(heard.logs.slice(before)).toEqual(expected.map((step) => `step ${step}`));
        if (seen.length === STEPS) complete++;
        else expect(seen).toEqual(expected.slice(0, seen.length));
      }
      expect(complete).toBe(CALLS);
      expect(heard.errors).toEqual([]);

      // The last call's context, used after its result: nothing is sent (a progress
      // notification would be for a token the client no longer knows, which it reports).
      const logs = heard.logs.length;
      await heard.late();
      expect(heard.logs.length).toBe(logs);
      expect(heard.errors).toEqual([]);
    },
  );
});
