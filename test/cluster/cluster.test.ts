/**
 * Three replicas behind nginx (deploy/nginx/skillport.conf: sticky by
 * Mcp-Session-Id, round-robin without one), sharing one Redis: the official
 * v2 client at 2026-07-28 and the v1 client with a legacy session and its
 * GET stream, through the balancer. Paging crosses replicas, a session stays
 * on one replica through nginx yet every replica serves it (and it moves
 * when its replica dies), input-required retries land anywhere, a folder
 * change reaches every listening client exactly once, and a restart of
 * every replica keeps legacy sessions.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import type { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpSend, messagesOf, modernHeaders } from '../_http-client.js';
import { modern } from '../_wire.js';
import { Figures, writeSection } from '../reliability/_report.js';
import { type Closers, legacyClient as newLegacyClient, modernClient as newModernClient, rawPromptNames } from './_clients.js';
import { type Cluster, PAGE_SIZE, startCluster, upstreamsOf } from './_cluster.js';
import { until } from './_processes.js';

let cluster: Cluster;
const closers: Closers = [];

beforeAll(async () => {
  cluster = await startCluster();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});
afterAll(async () => {
  await cluster?.stop();
});

const modernClient = (url: string) => newModernClient(url, closers);
const legacyClient = (url: string) => newLegacyClient(url, closers);

/** prompts/list in the legacy session `id`, sent raw to `url`. */
function legacyList(url: string, id: string, version: string) {
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': version,
    'Mcp-Session-Id': id,
  };
  return httpSend(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }) });
}

/** One stateless 2026-07-28 prompts/list (its first page) to `url`. */
function modernList(url: string) {
  const body = { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: modern({}) };
  return httpSend(url, { headers: modernHeaders(body), body: JSON.stringify(body) });
}

type Lister = (cursor: string | undefined) => Promise<{ items: unknown[]; nextCursor?: string | undefined }>;

async function walk(list: Lister): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  return { items, pages };
}

function listers(client: ClientV2 | ClientV1): Record<string, Lister> {
  const at = (cursor: string | undefined) => (cursor === undefined ? undefined : { cursor });
  return {
    prompts: async (cursor) => {
      const page = await client.listPrompts(at(cursor));
      return { items: page.prompts, nextCursor: page.nextCursor };
    },
    resources: async (cursor) => {
      const page = await client.listResources(at(cursor));
      return { items: page.resources, nextCursor: page.nextCursor };
    },
    templates: async (cursor) => {
      const page = await client.listResourceTemplates(at(cursor));
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    },
    tools: async (cursor) => {
      const page = await client.listTools(at(cursor));
      return { items: page.tools, nextCursor: page.nextCursor };
    },
  };
}

describe('a cluster behind nginx', () => {
  it('pages every list across replicas into exactly one replica’s listing (2026-07-28, v2 client)', async () => {
    const direct = listers(await modernClient(cluster.replicas[1]?.url as string));
    const balanced = listers(await modernClient(cluster.nginx.url));
    const before = cluster.nginx.accessLog().length;
    let pages = 0;
    for (const [name, list] of Object.entries(balanced)) {
      // The v2 client follows nextCursor itself when called without one: each page is a request.
      const expected = await walk(direct[name] as Lister);
      expect((await walk(list)).items, name).toEqual(expected.items);
      pages += Math.max(1, Math.ceil(expected.items.length / PAGE_SIZE));
    }
    expect(pages).toBeGreaterThan(8);
    // Every page was a request of its own, and the balancer spread them over all three replicas.
    await until('nginx to log the requests', () => cluster.nginx.accessLog().length >= before + pages);
    const posts = cluster.nginx.accessLog().slice(before);
    expect(posts.filter((line) => line.startsWith('POST 200 ')).length).toBeGreaterThanOrEqual(pages);
    expect(upstreamsOf(posts, 'POST').size).toBe(3);
  });

  it('keeps a legacy session (v1 client) working through nginx, and every replica serves it', async () => {
    const before = cluster.nginx.accessLog().length;
    const { client, transport } = await legacyClient(cluster.nginx.url);
    const id = transport.sessionId as string;
    expect(id).toBeDefined();
    const direct = listers(await modernClient(cluster.replicas[0]?.url as string));
    for (const [name, list] of Object.entries(listers(client))) {
      expect((await walk(list)).items, name).toEqual((await walk(direct[name] as Lister)).items);
    }
    await client.subscribeResource({ uri: 'skill://commit-message/SKILL.md' });
    const read = await client.readResource({ uri: 'skill://commit-message/SKILL.md' });
    expect(JSON.stringify(read.contents)).toContain('commit-message');
    expect(transport.sessionId).toBe(id);
    const posts = cluster.nginx
      .accessLog()
      .slice(before)
      .filter((line) => line.startsWith('POST'));
    expect(posts.every((line) => line.split(' ')[1] === '200' || line.split(' ')[1] === '202')).toBe(true);
    // nginx keeps the session on one replica (the next test); the others serve it
    // too, restored from its record in Redis: the session is shared, not pinned.
    const pages: unknown[] = [];
    for (const replica of cluster.replicas) {
      const answer = await legacyList(replica.url, id, transport.protocolVersion as string);
      expect(answer.status, replica.url).toBe(200);
      const [message] = messagesOf(answer.headers['content-type'] as string, answer.body).messages as Array<{ result: { prompts: unknown[] } }>;
      expect(message?.result.prompts.length, replica.url).toBe(PAGE_SIZE);
      pages.push(message?.result);
    }
    // The same first page, cursor included, from each.
    expect(pages[1]).toEqual(pages[0]);
    expect(pages[2]).toEqual(pages[0]);
  });

  it('sends a legacy session’s requests to one replica and spreads 2026-07-28 requests over all three', async () => {
    const before = cluster.nginx.accessLog().length;
    const { client, transport } = await legacyClient(cluster.nginx.url);
    const id = transport.sessionId as string;
    for (let i = 0; i < 6; i++) await client.listPrompts();
    for (let i = 0; i < 6; i++) expect((await modernList(cluster.nginx.url)).status).toBe(200);
    // initialize, notifications/initialized, six legacy and six stateless prompts/list.
    const posts = () =>
      cluster.nginx
        .accessLog()
        .slice(before)
        .filter((line) => line.startsWith('POST '));
    await until('nginx to log the requests', () => posts().length >= 14);
    const log = posts();
    // notifications/initialized and six prompts/list, all on one replica.
    const sticky = [...upstreamsOf(log, 'POST', id)];
    expect(sticky).toHaveLength(1);
    // initialize (which carries no session id yet) and the stateless requests: round-robin.
    expect(upstreamsOf(log, 'POST', '-').size).toBe(3);

    // That replica dies: nginx moves the session to another, which restores it from Redis.
    const holder = cluster.replicas.find((replica) => `127.0.0.1:${replica.port}` === sticky[0]);
    if (!holder) throw new Error(`no replica at ${sticky[0]}`);
    await holder.kill();
    try {
      const after = cluster.nginx.accessLog().length;
      for (let i = 0; i < 3; i++) expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
      expect(transport.sessionId).toBe(id);
      await until('nginx to log the requests', () => upstreamsOf(cluster.nginx.accessLog().slice(after), 'POST', id).size > 0);
      const moved = upstreamsOf(cluster.nginx.accessLog().slice(after), 'POST', id);
      expect([...moved].some((upstream) => upstream !== sticky[0])).toBe(true);
    } finally {
      await holder.start();
    }
  });

  it('forwards only the paths skillport serves, each answered as the replica answers it', async () => {
    const origin = (url: string) => url.replace(/\/mcp$/, '');
    const nginx = origin(cluster.nginx.url);
    const replica = origin(cluster.replicas[0]?.url as string);
    const answer = async (base: string, method: string, path: string) => {
      const response = await fetch(`${base}${path}`, { method, ...(method === 'POST' ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {}) });
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    };
    // Without --auth-issuer or a hook secret, the metadata and hook paths are the replica's own 404s.
    const forwarded: Array<[string, string]> = [
      ['GET', '/healthz'],
      ['GET', '/readyz'],
      ['GET', '/mcp'],
      ['GET', '/.well-known/oauth-protected-resource'],
      ['GET', '/.well-known/oauth-protected-resource/mcp'],
      ['POST', '/hooks/git'],
      // The discovery index's folder, by prefix: the index, and a name that is no skill.
      ['GET', '/.well-known/agent-skills/index.json'],
      ['GET', '/.well-known/agent-skills/no-such-skill/SKILL.md'],
      // The catalogue page: the replica's own 404 to a request that does not ask for HTML.
      ['GET', '/'],
    ];
    for (const [method, path] of forwarded) expect(await answer(nginx, method, path), `${method} ${path}`).toEqual(await answer(replica, method, path));
    const page = await fetch(`${nginx}/`, { headers: { Accept: 'text/html' } });
    expect([page.status, page.headers.get('content-security-policy')?.startsWith("default-src 'none'")]).toEqual([200, true]);
    expect(await page.text()).toContain('code-review');
    for (const path of ['/mcp/', '/metrics', '/.well-known/oauth-authorization-server', '/hooks/git/x', '/.well-known/agent-skills']) {
      const refused = await answer(nginx, 'GET', path);
      expect(refused.status, path).toBe(404);
      expect(refused, path).not.toEqual(await answer(replica, 'GET', path));
    }
  });

  it('answers an input-required retry on another replica than the one that asked', async () => {
    // Straight to two replicas, not through nginx: round-robin gives no
    // promise that two requests in a row land on different replicas (a
    // replica marked failed or a request from another test in between
    // sends both to one), and the point is that the second is another.
    const [asker, answerer] = cluster.replicas;
    const ask = (url: string, extra: Record<string, unknown> = {}) => {
      const params = modern({ name: 'code-review', arguments: { focus: 'security' }, ...extra });
      params._meta['io.modelcontextprotocol/clientCapabilities'] = { elicitation: {} };
      const body = { jsonrpc: '2.0', id: 1, method: 'prompts/get', params };
      return httpSend(url, { headers: modernHeaders(body), body: JSON.stringify(body) });
    };
    expect(asker?.port).not.toBe(answerer?.port);
    const asked = JSON.parse((await ask(asker?.url as string)).body);
    expect(asked.result.resultType).toBe('input_required');
    const done = JSON.parse(
      (
        await ask(answerer?.url as string, {
          inputResponses: { prompt_arguments: { action: 'accept', content: { language: 'go' } } },
          requestState: asked.result.requestState,
        })
      ).body,
    );
    expect(done.result.resultType).toBe('complete');
    expect(JSON.stringify(done.result.messages)).toContain('go');
  });

  it('tells every listening client of a folder change exactly once, from whichever replica holds its stream', async () => {
    const modernSeen: number[] = [];
    const legacySeen: number[] = [];
    for (let i = 0; i < 3; i++) {
      modernSeen.push(0);
      const client = await modernClient(cluster.nginx.url);
      client.setNotificationHandler('notifications/prompts/list_changed', () => {
        modernSeen[i] = (modernSeen[i] ?? 0) + 1;
      });
      const subscription = await client.listen({ promptsListChanged: true }, { timeout: 5000 });
      closers.push(() => subscription.close());
    }
    const legacy: Array<{ streams: () => number }> = [];
    for (let i = 0; i < 3; i++) {
      legacySeen.push(0);
      const one = await legacyClient(cluster.nginx.url);
      one.client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
        legacySeen[i] = (legacySeen[i] ?? 0) + 1;
      });
      legacy.push(one);
    }
    await until('every legacy GET stream to open', () => legacy.every((one) => one.streams() === 1));

    // A new skill appears whole (renamed in), so the watcher sees one change.
    const staging = join(dirname(cluster.folder), 'staging', 'cluster-added');
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'SKILL.md'), '---\nname: cluster-added\ndescription: Added while the cluster serves.\n---\nHello from a change.\n');
    const changedAt = Date.now();
    renameSync(staging, join(cluster.folder, 'cluster-added'));

    // Raw requests straight to each replica: the v2 client would answer from its cache (ttlMs).
    const converged: number[] = [];
    await until('every replica to serve the new skill', async () => {
      for (const [i, replica] of cluster.replicas.entries()) {
        if (converged[i] !== undefined) continue;
        if ((await rawPromptNames(replica.url)).includes('cluster-added')) converged[i] = Date.now() - changedAt;
      }
      return converged.filter((t) => t !== undefined).length === 3;
    });
    await until('every listener to hear of it', () => [...modernSeen, ...legacySeen].every((n) => n >= 1));
    // Time for a duplicate to arrive, if one were on its way.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const figures = new Figures();
    figures.add('Replicas / listeners (2026 listen streams + legacy GET streams), all through nginx', '3 / 3 + 3');
    figures.add('Time for each replica to serve the new skill (ms; the first watches, the others hear through Redis)', converged.join(', '));
    figures.add('prompts/list_changed per 2026 listener', modernSeen.join(', '));
    figures.add('prompts/list_changed per legacy listener', legacySeen.join(', '));
    const all = [...modernSeen, ...legacySeen];
    figures.add('Listeners told twice or more / never', `${all.filter((n) => n > 1).length} / ${all.filter((n) => n === 0).length}`);
    writeSection('cluster-change', `### Cluster: a folder change (test:cluster)\n\nTimings vary run to run; the counts must not.\n\n${figures.table()}`);
    expect(modernSeen).toEqual([1, 1, 1]);
    expect(legacySeen).toEqual([1, 1, 1]);
  });

  it('keeps legacy sessions across a restart of every replica', async () => {
    const { client, transport } = await legacyClient(cluster.nginx.url);
    await client.listPrompts();
    const id = transport.sessionId;
    for (const replica of cluster.replicas) await replica.stop();
    for (const replica of cluster.replicas) await replica.start();
    // While all were down nginx may have marked them failed (the client's GET stream retried);
    // it routes again once each has answered. Requests during a total outage fail, of course:
    // what must survive is the session.
    const readyz = cluster.nginx.url.replace(/\/mcp$/, '/readyz');
    let answered = 0;
    await until('nginx to route to the restarted replicas', async () => {
      answered = (await fetch(readyz)).ok ? answered + 1 : 0;
      return answered >= 3;
    });
    for (let i = 0; i < 3; i++) expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    expect(transport.sessionId).toBe(id);
  });
});
