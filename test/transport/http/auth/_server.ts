/**
 * skillport's own skills folder fixture served over node:http on 127.0.0.1
 * with the OAuth resource server on, and what it logged (to prove no token
 * ever reaches the log).
 */
import { join } from 'node:path';
import { type HttpServer, type OAuthOptions, type ServeHttpOptions, serveHttp } from '../../../../src/http.js';
import { createServer, type Logger } from '../../../../src/index.js';
import { loadSkillsFolder } from '../../../../src/skills.js';
import { modernHeaders } from '../../../_http-client.js';
import { ROOT } from '../../../_stdio-client.js';
import { type Message, modernMeta } from '../../../_wire.js';

export const SKILLS = join(ROOT, 'test/fixtures/skills/valid');

export interface Served {
  http: HttpServer;
  /** The MCP endpoint, which is the audience tokens are issued for. */
  url: string;
  /** Every line the server logged, with its details. */
  log: string[];
  close(): Promise<void>;
}

export async function serveWithOAuth(
  oauth: OAuthOptions,
  folder = SKILLS,
  watch = false,
  pageSize?: number,
  http: Omit<ServeHttpOptions, 'oauth' | 'logger'> = {},
): Promise<Served> {
  const log: string[] = [];
  const record =
    (level: string) =>
    (message: string, details?: unknown): void => {
      log.push(`${level} ${message} ${details instanceof Error ? `${details.message} ${details.stack}` : JSON.stringify(details ?? '')}`);
    };
  const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const skills = await loadSkillsFolder([folder], { watch, debounceMs: 20 });
  const server = createServer({
    name: 'auth-test',
    version: '1.0.0',
    prompts: skills.prompts,
    resources: skills.resources,
    skills: skills.skills,
    ...(skills.tools ? { tools: skills.tools } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    logger,
  });
  const served = await serveHttp(server, { port: 0, ...http, oauth, logger });
  return {
    http: served,
    url: served.url.href,
    log,
    async close() {
      await served.close();
      skills.close();
      server.close();
    },
  };
}

let nextId = 1;

/** A 2026-07-28 request POSTed with `token` (none when undefined). */
export function call(url: string, method: string, params: Message = {}, token?: string, extra: Record<string, string> = {}): Promise<Response> {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: modernMeta() } };
  const headers: Record<string, string> = { ...modernHeaders(body), ...extra };
  if (token !== undefined) headers.Authorization = `Bearer ${token}`;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
}
