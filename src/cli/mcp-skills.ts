/**
 * The skills of a running MCP server, read as a host reads them through the
 * Skills extension (SEP-2640): `skills/list` for the entries and their
 * manifests, `resources/read` for each file, every file's size and SHA-256
 * checked against its manifest entry before it is kept (SEP-2640 §7, §9).
 * Spoken statelessly at the newest revision skillport serves (2026-07-28:
 * each POST carries its `_meta`, `MCP-Protocol-Version`, `Mcp-Method` and,
 * for a read, `Mcp-Name`), so there is no session to open or close.
 */
import { createHash } from 'node:crypto';
import { MODERN_VERSIONS } from '../index.js';
import type { InstallableSkill, SkillFile } from '../skills.js';
import { readCapped } from '../util/bytes.js';

/** Most bytes of one answer (a skill's largest file, base64 and JSON around it). */
const MAX_ANSWER_BYTES = 96 * 1024 * 1024;
/** Most files and bytes of one skill: well over SEP-2640 §3's 512 and 16 MiB, which hosts must accept. */
const MAX_SKILL_FILES = 4096;
const MAX_SKILL_BYTES = 64 * 1024 * 1024;
/** Most pages of `skills/list` followed. */
const MAX_PAGES = 100;
const TIMEOUT_MS = 30_000;
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

interface ManifestEntry {
  uri: string;
  digest: string;
  size: number;
}

interface SkillEntry {
  uri: string;
  frontmatter: { name: string };
  resources: ManifestEntry[] | 'dynamic';
}

/** How to reach the server: its endpoint and, if it wants one, a bearer token. */
export interface McpEndpoint {
  readonly url: string;
  readonly token?: string;
}

/** Whether `source` names an MCP endpoint: `mcp+https://…` or `mcp+http://…`. */
export function isMcpSource(source: string): boolean {
  return /^mcp\+https?:\/\//i.test(source);
}

/** A header value as `Mcp-Name` carries it: as is when plain ASCII, else `=?base64?…?=` (2026-07-28 HTTP binding). */
function headerValue(value: string): string {
  const plain = /^[\x20-\x7e]+$/.test(value) && value.trim() === value && !value.startsWith('=?base64?');
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** The body of `response` as text, refused past {@link MAX_ANSWER_BYTES}. */
async function readAnswer(response: Response): Promise<string> {
  const bytes = await readCapped(response.body, MAX_ANSWER_BYTES);
  if (bytes === undefined) throw new Error(`an answer of the server is larger than ${MAX_ANSWER_BYTES} bytes`);
  return new TextDecoder().decode(bytes);
}

/** The JSON-RPC messages of an answer: one JSON body, or the `data` of each SSE event. */
function messagesOf(text: string, contentType: string): unknown[] {
  if (!contentType.startsWith('text/event-stream')) return [JSON.parse(text)];
  const messages: unknown[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (data.length > 0) messages.push(JSON.parse(data.join('\n')));
  }
  return messages;
}

/** Makes one request and returns its result, or throws with the server's error. */
function requester(endpoint: McpEndpoint): (method: string, params: Record<string, unknown>, name?: string) => Promise<Record<string, unknown>> {
  const version = MODERN_VERSIONS[MODERN_VERSIONS.length - 1] as string;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [SKILLS_EXTENSION]: {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'skillport-install', version: '1' },
  };
  let id = 0;
  return async (method, params, name) => {
    id += 1;
    const response = await fetch(endpoint.url, {
      method: 'POST',
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': version,
        'mcp-method': method,
        ...(name !== undefined ? { 'mcp-name': headerValue(name) } : {}),
        ...(endpoint.token !== undefined ? { authorization: `Bearer ${endpoint.token}` } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
    });
    if (response.status === 401 || response.status === 403) throw new Error(`the server answered ${response.status}: it wants a token (--token-env)`);
    const text = await readAnswer(response);
    const answer = messagesOf(text, response.headers.get('content-type') ?? '').find((m) => (m as { id?: unknown }).id === id) as
      | { result?: Record<string, unknown>; error?: { code: number; message: string } }
      | undefined;
    if (answer?.error) throw new Error(`${method}: ${answer.error.message} (${answer.error.code})`);
    if (!answer?.result) throw new Error(`${method}: no answer (HTTP ${response.status})`);
    return answer.result;
  };
}

/** Every entry of `skills/list`, page after page (a repeated cursor stops it). */
async function listSkills(call: ReturnType<typeof requester>): Promise<SkillEntry[]> {
  const skills: SkillEntry[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await call('skills/list', cursor === undefined ? {} : { cursor });
    skills.push(...((result.skills as SkillEntry[] | undefined) ?? []));
    cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    if (cursor === undefined) return skills;
    if (seen.has(cursor)) throw new Error('skills/list repeated a cursor');
    seen.add(cursor);
  }
  throw new Error(`skills/list has more than ${MAX_PAGES} pages`);
}

/** A manifest entry's path inside the skill, each segment decoded; throws for one outside the skill. */
function pathInSkill(root: string, uri: string): string {
  if (!uri.startsWith(`${root}/`)) throw new Error(`${uri} is not inside ${root}`);
  const segments = uri
    .slice(root.length + 1)
    .split('/')
    .map(decodeURIComponent);
  if (segments.some((segment) => segment.includes('/'))) throw new Error(`${uri} names a path with an encoded "/"`);
  return segments.join('/');
}

/** Reads one file of a manifest and checks its size and digest (SEP-2640 §7: size first, then the digest). */
async function readVerified(call: ReturnType<typeof requester>, entry: ManifestEntry): Promise<Uint8Array> {
  const result = await call('resources/read', { uri: entry.uri }, entry.uri);
  const content = (result.contents as Array<{ text?: string; blob?: string }> | undefined)?.[0];
  if (content === undefined) throw new Error(`${entry.uri}: the server sent no content`);
  const bytes = typeof content.blob === 'string' ? Buffer.from(content.blob, 'base64') : Buffer.from(content.text ?? '', 'utf8');
  if (bytes.byteLength !== entry.size) throw new Error(`${entry.uri}: ${bytes.byteLength} bytes where the manifest says ${entry.size}`);
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (digest !== entry.digest) throw new Error(`${entry.uri}: its digest does not match the manifest`);
  return bytes;
}

/** A skill of the listing as one to install: its manifest checked, its files read and verified when installed. */
function installable(call: ReturnType<typeof requester>, skill: SkillEntry): InstallableSkill & { readonly name: string } {
  const name = String(skill.frontmatter?.name ?? '');
  return {
    name,
    async files(): Promise<SkillFile[]> {
      if (!Array.isArray(skill.resources)) throw new Error('its files are "dynamic": there are no digests to check them against');
      const total = skill.resources.reduce((sum, entry) => sum + entry.size, 0);
      if (skill.resources.length > MAX_SKILL_FILES || total > MAX_SKILL_BYTES)
        throw new Error(`it has ${skill.resources.length} files and ${total} bytes, over ${MAX_SKILL_FILES} files or ${MAX_SKILL_BYTES} bytes`);
      const root = skill.uri.slice(0, skill.uri.lastIndexOf('/'));
      const files: SkillFile[] = [];
      for (const entry of skill.resources) files.push({ path: pathInSkill(root, entry.uri), bytes: await readVerified(call, entry) });
      return files;
    },
  };
}

/** The skills an MCP server lists through the Skills extension, as skills to install. */
export async function mcpSkills(endpoint: McpEndpoint): Promise<InstallableSkill[]> {
  const call = requester(endpoint);
  return (await listSkills(call)).filter((skill) => typeof skill?.uri === 'string').map((skill) => installable(call, skill));
}
