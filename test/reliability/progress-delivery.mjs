// How many of a fast tool's progress notifications and log messages the
// official clients hear before its call resolves: SDK v1
// (@modelcontextprotocol/sdk) and v2 (@modelcontextprotocol/client), over
// stdio and Streamable HTTP on 127.0.0.1, on each revision the client speaks.
// Both clients drop a progress notification they read in the same chunk as
// the result it belongs to (their response handler removes the progress
// handler at once, their notification handlers run a microtask later), so
// this counts what reaches them. The server is
// test/fixtures/servers/progress.mjs, built from dist/ (`npm run build` first).
//
//   node test/reliability/progress-delivery.mjs [calls=200] [steps=2]
//
// Prints one line per combination: progress and log messages heard / sent.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PROGRESS_COMBINATIONS } from '../fixtures/progress-combinations.mjs';

const FIXTURE = fileURLToPath(new URL('../fixtures/servers/progress.mjs', import.meta.url));
const CALLS = Number(process.argv[2] ?? 200);
const STEPS = Number(process.argv[3] ?? 2);
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** A v2 stdio transport that probes in the session's own process, not in a sibling. */
class InPlaceStdio extends StdioV2 {}

/** Rewrites the initialize offer of a client that offers its newest revision. */
function offering(transport, version) {
  if (!version) return transport;
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send('method' in message && message.method === 'initialize' ? { ...message, params: { ...message.params, protocolVersion: version } } : message, options);
  return transport;
}

async function startHttp() {
  const child = spawn(process.execPath, [FIXTURE, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      if (buffer.includes('\n')) resolve(new URL(JSON.parse(buffer.split('\n')[0]).url));
    });
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function connect(sdk, wire, revision) {
  const modern = revision === '2026-07-28';
  let stop = () => {};
  let transport;
  if (wire === 'stdio') {
    const Stdio = sdk === 'v1' ? StdioV1 : InPlaceStdio;
    transport = new Stdio({ command: process.execPath, args: [FIXTURE], stderr: 'inherit' });
  } else {
    const http = await startHttp();
    stop = http.stop;
    transport = sdk === 'v1' ? new HttpV1(http.url) : new HttpV2(http.url);
  }
  if (!modern) offering(transport, revision);
  const client =
    sdk === 'v1'
      ? new ClientV1({ name: 'measure', version: '1' })
      : new ClientV2({ name: 'measure', version: '2' }, modern ? { versionNegotiation: { mode: { pin: revision } } } : {});
  await client.connect(transport);
  const spoken = sdk === 'v1' ? transport.protocolVersion : client.getNegotiatedProtocolVersion();
  if (spoken && spoken !== revision) throw new Error(`${sdk} ${wire} speaks ${spoken}, not ${revision}`);
  return { client, close: async () => (await client.close(), stop()) };
}

async function measure(sdk, wire, revision) {
  const { client, close } = await connect(sdk, wire, revision);
  const modern = revision === '2026-07-28';
  let logs = 0;
  if (sdk === 'v1') client.setNotificationHandler(LoggingMessageNotificationSchema, () => void logs++);
  else client.setNotificationHandler('notifications/message', () => void logs++);
  if (!modern) await client.setLoggingLevel('info');
  let progress = 0;
  let logsBeforeResult = 0;
  for (let call = 0; call < CALLS; call++) {
    const before = logs;
    const params = { name: 'steps', arguments: { count: STEPS }, ...(modern ? { _meta: { [LOG_LEVEL_KEY]: 'info' } } : {}) };
    const options = { onprogress: () => void progress++ };
    // v1 takes a result schema before the options; v2 takes the options second.
    if (sdk === 'v1') await client.callTool(params, undefined, options);
    else await client.callTool(params, options);
    logsBeforeResult += logs - before;
  }
  await close();
  const sent = CALLS * STEPS;
  return { progress, logsBeforeResult, sent };
}

const only = process.env.ONLY;
for (const [sdk, wire, revision] of PROGRESS_COMBINATIONS) {
  if (only && !`${sdk} ${wire} ${revision}`.includes(only)) continue;
  const { progress, logsBeforeResult, sent } = await measure(sdk, wire, revision);
  console.log(`${sdk} ${wire.padEnd(5)} ${revision}: progress ${progress}/${sent}, log messages before the result ${logsBeforeResult}/${sent}`);
}
