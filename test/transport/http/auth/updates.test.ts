/**
 * Resource updates and the caller's audiences: a 2026-07-28 listen request
 * subscribed to files of a skill its caller may not use hears nothing of
 * them when they change, while the files it may use are reported; the same
 * holds for a 2025 session's subscriptions (engine.mayRead on every update).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders, SseReader } from '../../../_http-client.js';
import { initializeParams, modernMeta } from '../../../_wire.js';
import { writeFolder } from './_folder.js';
import { type Issuer, startIssuer } from './_issuer.js';
import { type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
let folder: { dir: string; remove(): void };
beforeAll(async () => {
  issuer = await startIssuer();
  folder = writeFolder();
  served = await serveWithOAuth({ issuer: issuer.url }, folder.dir, true);
});
afterAll(async () => {
  await served?.close();
  folder?.remove();
  await issuer?.stop();
});

const SUBSCRIBED = ['skill://beta-runbook/references/secret-plan.md', 'skill://alpha-playbook/references/guide.md', 'skill://public-notes/SKILL.md'];

describe('updates of what a caller may not use', () => {
  it('are not sent to a listen request, while the others are', async () => {
    const token = await issuer.token('team-a', served.url, 'skills:read team:a');
    const controller = new AbortController();
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: SUBSCRIBED }, _meta: modernMeta() },
    };
    const response = await fetch(served.url, {
      method: 'POST',
      headers: { ...modernHeaders(body), Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = new SseReader(response);
    try {
      await reader.until((r) => r.events.some((e) => e.method === 'notifications/subscriptions/acknowledged'));
      const updated = (uri: string) => (r: SseReader) => r.events.some((e) => e.method === 'notifications/resources/updated' && e.params.uri === uri);
      writeFileSync(join(folder.dir, 'beta-runbook/references/secret-plan.md'), '# Beta plan\n\nPage everyone.\n');
      writeFileSync(join(folder.dir, 'alpha-playbook/references/guide.md'), '# Alpha guide\n\nShip on Wednesdays.\n');
      await reader.until(updated('skill://alpha-playbook/references/guide.md'));
      // A later change, on the same stream: anything about beta would have come before it.
      writeFileSync(
        join(folder.dir, 'public-notes/SKILL.md'),
        '---\nname: public-notes\ndescription: Notes anyone on any team may read.\n---\nRead them twice.\n',
      );
      await reader.until(updated('skill://public-notes/SKILL.md'));
      const updates = reader.events.filter((e) => e.method === 'notifications/resources/updated').map((e) => e.params.uri);
      expect(updates).toEqual(['skill://alpha-playbook/references/guide.md', 'skill://public-notes/SKILL.md']);
    } finally {
      controller.abort();
    }
  });

  it('are not sent on a 2025 session subscribed to them, while the others are', async () => {
    const token = await issuer.token('team-a', served.url, 'skills:read team:a');
    const headers = (session?: string): Record<string, string> => ({
      Authorization: `Bearer ${token}`,
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2025-11-25',
      ...(session ? { 'Mcp-Session-Id': session } : {}),
    });
    const post = (body: unknown, session?: string) => fetch(served.url, { method: 'POST', headers: headers(session), body: JSON.stringify(body) });
    const opened = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams('2025-11-25') });
    const session = opened.headers.get('mcp-session-id') as string;
    await opened.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    for (const [i, uri] of SUBSCRIBED.entries()) {
      const answer = await post({ jsonrpc: '2.0', id: 10 + i, method: 'resources/subscribe', params: { uri } }, session);
      expect(((await answer.json()) as { result?: unknown }).result).toEqual({});
    }
    const controller = new AbortController();
    const stream = await fetch(served.url, { headers: headers(session), signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream);
    try {
      const updated = (uri: string) => (r: SseReader) => r.events.some((e) => e.method === 'notifications/resources/updated' && e.params.uri === uri);
      writeFileSync(join(folder.dir, 'beta-runbook/references/secret-plan.md'), '# Beta plan\n\nPage nobody.\n');
      writeFileSync(join(folder.dir, 'alpha-playbook/references/guide.md'), '# Alpha guide\n\nShip on Thursdays.\n');
      await reader.until(updated('skill://alpha-playbook/references/guide.md'));
      writeFileSync(
        join(folder.dir, 'public-notes/SKILL.md'),
        '---\nname: public-notes\ndescription: Notes anyone on any team may read.\n---\nRead them thrice.\n',
      );
      await reader.until(updated('skill://public-notes/SKILL.md'));
      const updates = reader.events.filter((e) => e.method === 'notifications/resources/updated').map((e) => e.params.uri);
      expect(updates).toEqual(['skill://alpha-playbook/references/guide.md', 'skill://public-notes/SKILL.md']);
    } finally {
      controller.abort();
    }
  });
});
