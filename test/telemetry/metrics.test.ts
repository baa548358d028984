/**
 * `serve --http … --metrics …` as a user runs it: the built CLI, the
 * official SDK client over real HTTP, and `GET /metrics` read back. The MCP
 * metrics carry the OpenTelemetry names and labels; names come from the
 * catalogue, never from the client; each skill's uses are counted once per
 * surface; the transport's refusals by reason; `skillport usage` prints the
 * table, unused skills included. The metrics listener answers only its
 * path, only GET, and only loopback Host names while bound to loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../_stdio-client.js';

const CLI = `${ROOT}bin/skillport.js`;
const FOLDER = `${ROOT}test/fixtures/skills/valid`;

let child: ChildProcess;
let mcp: URL;
let metrics: URL;
let client: Client;

/** Starts the CLI and reads the two URLs it logs. */
async function start(): Promise<void> {
  child = spawn(process.execPath, [CLI, 'serve', FOLDER, '--http', '127.0.0.1:0', '--metrics', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${log}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const metricsAt = /serving metrics at (\S+)/.exec(log)?.[1];
      const mcpAt = /prompts and 2 tools from .* at (\S+) \(protocol/.exec(log)?.[1];
      if (metricsAt && mcpAt) {
        clearTimeout(timer);
        metrics = new URL(metricsAt);
        mcp = new URL(mcpAt);
        resolve();
      }
    });
  });
}

/** A raw GET with any Host header (fetch would not send a forged one). */
function rawGet(url: URL, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { Host: host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function scrape(): Promise<string> {
  const response = await fetch(metrics);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return response.text();
}

/** The value of the one sample whose name and labels are exactly these. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = text.split('\n').find((l) => l.startsWith(`${name}${wanted ? `{${wanted}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

beforeAll(async () => {
  await start();
  client = new Client({ name: 'metrics-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcp));
  await client.getPrompt({ name: 'greeting', arguments: { who: 'Ada' } });
  await client.getPrompt({ name: 'greeting', arguments: { who: 'Lin', language: 'french' } });
  await expect(client.getPrompt({ name: 'no-such-prompt-xyz', arguments: {} })).rejects.toThrow();
  // An unknown tool is -32602 (or an isError result, as the revision says): its name opens no series either.
  await client.callTool({ name: 'no-such-tool-xyz', arguments: {} }).catch(() => undefined);
  await client.callTool({ name: 'load_skill', arguments: { name: 'pdf-tools' } });
  await client.callTool({ name: 'read_skill_file', arguments: { skill: 'pdf-tools', path: 'references/forms.md' } });
  await client.callTool({ name: 'load_skill', arguments: { query: 'pdf' } });
  await client.readResource({ uri: 'skill://pdf-tools/SKILL.md' });
  expect((await rawGet(mcp, 'evil.example')).status).toBe(403);
}, 30_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  child?.kill('SIGTERM');
});

describe('serve --metrics', () => {
  it('times each request under the OpenTelemetry MCP names and labels', async () => {
    const text = await scrape();
    const base = 'mcp_server_operation_duration_seconds_count';
    const http = { mcp_protocol_version: '2025-11-25' };
    expect(sample(text, base, { mcp_method_name: 'prompts/get', ...http, gen_ai_prompt_name: 'greeting', network_transport: 'tcp' })).toBe(2);
    expect(sample(text, base, { mcp_method_name: 'prompts/get', ...http, error_type: '-32602', network_transport: 'tcp' })).toBe(1);
    expect(sample(text, base, { mcp_method_name: 'tools/call', ...http, gen_ai_tool_name: 'load_skill', network_transport: 'tcp' })).toBe(2);
    expect(sample(text, base, { mcp_method_name: 'initialize', ...http, network_transport: 'tcp' })).toBe(1);
    expect(text).toContain(
      'mcp_server_operation_duration_seconds_bucket{mcp_method_name="prompts/get",mcp_protocol_version="2025-11-25",gen_ai_prompt_name="greeting",network_transport="tcp",le="+Inf"} 2',
    );
    // A name the client made up opens no series.
    expect(text).not.toContain('no-such-prompt-xyz');
    expect(text).not.toContain('no-such-tool-xyz');
    expect(sample(text, 'skillport_http_sessions_open', {})).toBe(1);
    expect(sample(text, 'skillport_requests_in_flight', {})).toBe(0);
  });

  it("counts the transport's refusals by reason", async () => {
    expect(sample(await scrape(), 'skillport_http_refusals_total', { reason: 'host' })).toBe(1);
  });

  it('counts each use of a skill once, by surface, and lists every skill served', async () => {
    const text = await scrape();
    const uses = (skill: string, surface: string) => sample(text, 'skillport_skill_uses_total', { skill, surface });
    expect(uses('greeting', 'prompt')).toBe(2);
    // load_skill renders the prompt and read_skill_file reads the resource: each counts as itself alone.
    expect(uses('pdf-tools', 'load_skill')).toBe(1);
    expect(uses('pdf-tools', 'read_skill_file')).toBe(1);
    expect(uses('pdf-tools', 'file')).toBe(1);
    expect(uses('pdf-tools', 'prompt')).toBeUndefined();
    expect(sample(text, 'skillport_skill_info', { skill: 'unicode-skill' })).toBe(1);
  });

  it('prints the usage table of running servers with `skillport usage`, unused skills included', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const usage = spawn(process.execPath, [CLI, 'usage', metrics.href, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      usage.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      usage.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`usage exited ${code}`))));
    });
    const rows = JSON.parse(out) as Array<{ skill: string; total: number; uses: Record<string, number> }>;
    expect(rows[0]).toEqual({ skill: 'pdf-tools', total: 3, uses: { prompt: 0, skill: 0, file: 1, load_skill: 1, read_skill_file: 1 } });
    expect(rows.find((row) => row.skill === 'greeting')?.total).toBe(2);
    expect(rows.find((row) => row.skill === 'unicode-skill')).toMatchObject({ total: 0 });
  });

  it('answers only GET /metrics, and only to loopback Host names while bound to loopback', async () => {
    expect((await rawGet(metrics, 'evil.example')).status).toBe(403);
    expect((await rawGet(metrics, `localhost:${metrics.port}`)).status).toBe(200);
    expect((await rawGet(new URL('/other', metrics), `127.0.0.1:${metrics.port}`)).status).toBe(404);
    expect((await rawGet(metrics, `127.0.0.1:${metrics.port}`, 'POST')).status).toBe(405);
  });
});
