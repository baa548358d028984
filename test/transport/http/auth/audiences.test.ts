/**
 * Skills per audience: two tokens from the real authorization server, one
 * for team a and one for team b (audiences = scopes), see different skill
 * sets in every list (prompts, resources, templates' completions, the
 * Skills extension, the skill tools), and whatever one may not use is
 * answered exactly as if it did not exist: every answer of the whole folder
 * to a caller equals the answer of a folder without what it may not use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from '../../../_http-client.js';
import { type Message, modernMeta } from '../../../_wire.js';
import { HIDDEN_FROM_A, HIDDEN_FROM_B, writeFolder } from './_folder.js';
import { type Issuer, startIssuer } from './_issuer.js';
import { type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
const cleanups: Array<() => unknown> = [];
let full: Served;
let withoutB: Served;
let withoutA: Served;

beforeAll(async () => {
  issuer = await startIssuer();
  const serve = async (leaveOut: string[]) => {
    const folder = writeFolder(leaveOut);
    const served = await serveWithOAuth({ issuer: issuer.url, scopes: ['skills:read'] }, folder.dir);
    cleanups.push(() => served.close(), folder.remove);
    return served;
  };
  full = await serve([]);
  withoutB = await serve(HIDDEN_FROM_A);
  withoutA = await serve(HIDDEN_FROM_B);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await issuer?.stop();
});

/** A 2026-07-28 request with a fixed id, so answers of two servers compare whole. */
async function ask(served: Served, token: string, method: string, params: Message = {}): Promise<{ status: number; body: Message }> {
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta() } };
  const response = await fetch(served.url, {
    method: 'POST',
    headers: { ...modernHeaders(body), Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Message;
  // Whether another caller may be answered otherwise differs between the two folders by design
  // (cache-scope.test.ts holds it): the answers are compared without it.
  if (answer.result) delete answer.result.cacheScope;
  return { status: response.status, body: answer };
}

const TEMPLATE = { type: 'ref/resource', uri: 'skill://{skill}/{+path}' };

/** Every list, and every way to reach one skill, its reference and its files. */
function probes(hidden: string, reference: string): Array<[string, Message]> {
  return [
    ['prompts/list', {}],
    ['resources/list', {}],
    ['resources/templates/list', {}],
    ['skills/list', {}],
    ['tools/list', {}],
    ['completion/complete', { ref: TEMPLATE, argument: { name: 'skill', value: '' } }],
    ['completion/complete', { ref: TEMPLATE, argument: { name: 'skill', value: hidden.slice(0, 2) } }],
    ['completion/complete', { ref: TEMPLATE, argument: { name: 'path', value: '' }, context: { arguments: { skill: hidden } } }],
    ['completion/complete', { ref: { type: 'ref/prompt', name: hidden }, argument: { name: 'x', value: '' } }],
    ['prompts/get', { name: hidden }],
    ['prompts/get', { name: `${hidden}-references-${reference}` }],
    ['resources/read', { uri: `skill://${hidden}/SKILL.md` }],
    ['resources/read', { uri: `skill://${hidden}/references/${reference}.md` }],
    ['resources/read', { uri: `skill://${encodeURIComponent(hidden)}/SKILL.md` }],
    ['skills/get', { uri: `skill://${hidden}/SKILL.md` }],
    ['resources/directory/read', { uri: `skill://${hidden}` }],
    ['resources/directory/read', { uri: `skill://${hidden}/references` }],
    ['tools/call', { name: 'load_skill', arguments: { name: hidden } }],
    ['tools/call', { name: 'load_skill', arguments: { query: hidden.replace('-', ' ') } }],
    ['tools/call', { name: 'read_skill_file', arguments: { skill: hidden, path: `references/${reference}.md` } }],
    ['prompts/get', { name: 'beta-retro' }],
    ['prompts/get', { name: 'alpha-standup' }],
  ];
}

describe('two teams, one folder', () => {
  it('team a sees its skills and the shared ones in every list, and none of team b', async () => {
    const a = await issuer.token('team-a', full.url, 'skills:read team:a');
    const prompts = (await ask(full, a, 'prompts/list')).body.result.prompts.map((p: Message) => p.name).sort();
    expect(prompts).toEqual(['alpha-playbook', 'alpha-playbook-references-guide', 'alpha-standup', 'outer', 'public-notes', 'shared-style']);
    const uris = (await ask(full, a, 'resources/list')).body.result.resources.map((r: Message) => r.uri);
    expect(uris).toContain('skill://alpha-playbook/references/guide.md');
    expect(uris.filter((uri: string) => uri.includes('beta'))).toEqual([]);
    const skills = (await ask(full, a, 'skills/list')).body.result.skills.map((s: Message) => s.uri).sort();
    expect(skills).toEqual(['skill://alpha-playbook/SKILL.md', 'skill://outer/SKILL.md', 'skill://public-notes/SKILL.md', 'skill://shared-style/SKILL.md']);
    const tools = (await ask(full, a, 'tools/list')).body.result.tools;
    const description = tools.find((t: Message) => t.name === 'load_skill').description as string;
    expect(description).toContain('alpha-playbook');
    expect(description).not.toContain('beta');
    const names = (await ask(full, a, 'completion/complete', { ref: TEMPLATE, argument: { name: 'skill', value: '' } })).body.result.completion.values;
    expect([...names].sort()).toEqual(['alpha-playbook', 'outer', 'public-notes', 'shared-style']);
  });

  it('team b sees the other set', async () => {
    const b = await issuer.token('team-b', full.url, 'skills:read team:b');
    const prompts = (await ask(full, b, 'prompts/list')).body.result.prompts.map((p: Message) => p.name).sort();
    expect(prompts).toEqual([
      'beta-retro',
      'beta-runbook',
      'beta-runbook-references-secret-plan',
      'inner',
      'inner-references-torque',
      'outer',
      'public-notes',
      'shared-style',
    ]);
    const read = await ask(full, b, 'resources/read', { uri: 'skill://beta-runbook/references/secret-plan.md' });
    expect(read.body.result.contents[0].text).toContain('Page the on-call.');
  });

  it('a token with no team sees only what is restricted to no one', async () => {
    const none = await issuer.token('team-a', full.url, 'skills:read');
    const prompts = (await ask(full, none, 'prompts/list')).body.result.prompts.map((p: Message) => p.name);
    expect(prompts).toEqual(['outer', 'public-notes']);
  });

  it.each([
    ['team a', 'team-a', 'skills:read team:a', 'beta-runbook', 'secret-plan', () => withoutB],
    ['team b', 'team-b', 'skills:read team:b', 'alpha-playbook', 'guide', () => withoutA],
  ])('%s gets of the whole folder exactly what a folder without the other team’s skills answers', async (_who, client, scope, hidden, reference, other) => {
    const token = await issuer.token(client, full.url, scope);
    const otherToken = await issuer.token(client, other().url, scope);
    for (const [method, params] of probes(hidden, reference)) {
      const mine = await ask(full, token, method, params);
      const without = await ask(other(), otherToken, method, params);
      expect({ method, params, ...mine }).toEqual({ method, params, ...without });
      // Nothing of the hidden skill but what the caller itself sent (an "unknown" answer names what was asked).
      const text = JSON.stringify(mine.body);
      expect(text).not.toMatch(
        hidden === 'beta-runbook' ? /beta team runbook|Page the on-call|beta retro/ : /alpha team playbook|Ship on Tuesdays|alpha stand-up/,
      );
      if (!JSON.stringify(params).includes(hidden)) expect(text).not.toContain(hidden);
    }
  });

  it("team a sees nothing of a team b skill nested in an open one, in every view of the open skill's files", async () => {
    const a = await issuer.token('team-a', full.url, 'skills:read team:a');
    const otherA = await issuer.token('team-a', withoutB.url, 'skills:read team:a');
    const outer = 'skill://outer/SKILL.md';
    const path = (value: string) => ({ ref: TEMPLATE, argument: { name: 'path', value }, context: { arguments: { skill: 'outer' } } });
    const views: Array<[string, Message]> = [
      ['skills/list', {}],
      ['skills/get', { uri: outer }],
      ['resources/list', {}],
      ['resources/directory/read', { uri: 'skill://outer' }],
      ['resources/directory/read', { uri: 'skill://outer/parts' }],
      ['resources/directory/read', { uri: 'skill://outer/parts/inner' }],
      ['resources/read', { uri: 'skill://outer/parts/inner/SKILL.md' }],
      ['completion/complete', path('')],
      ['completion/complete', path('parts/')],
      ['completion/complete', path('parts/i')],
      ['tools/call', { name: 'load_skill', arguments: { name: 'outer' } }],
      ['tools/call', { name: 'read_skill_file', arguments: { skill: 'outer', path: 'parts/' } }],
      ['tools/call', { name: 'read_skill_file', arguments: { skill: 'outer', path: 'parts/inner/SKILL.md' } }],
      ['tools/call', { name: 'read_skill_file', arguments: { skill: 'outer', path: 'parts/inner/references/torque.md' } }],
    ];
    for (const [method, params] of views) {
      const mine = await ask(full, a, method, params);
      const without = await ask(withoutB, otherA, method, params);
      expect({ method, params, ...mine }).toEqual({ method, params, ...without });
      const text = JSON.stringify(mine.body);
      expect(text, `${method} ${JSON.stringify(params)}`).not.toMatch(/beta parts checklist|Torque to 12 Nm/);
      // Nor its paths, but where the caller itself sent one (an "unknown" answer names what was asked).
      if (!JSON.stringify(params).includes('inner')) expect(text, `${method} ${JSON.stringify(params)}`).not.toMatch(/inner|torque/);
    }
    // Team b, who may use both, sees inner's files in outer's manifest.
    const b = await issuer.token('team-b', full.url, 'skills:read team:b');
    const manifest = (await ask(full, b, 'skills/get', { uri: outer })).body.result.skill.resources.map((r: Message) => r.uri);
    expect(manifest).toContain('skill://outer/parts/inner/references/torque.md');
  });

  it('a list cursor minted for one team is refused to the other', async () => {
    // One prompt per page, so that every list has cursors.
    const folder = writeFolder([]);
    const paged = await serveWithOAuth({ issuer: issuer.url, scopes: ['skills:read'] }, folder.dir, false, 1);
    cleanups.push(() => paged.close(), folder.remove);
    const a = await issuer.token('team-a', paged.url, 'skills:read team:a');
    const b = await issuer.token('team-b', paged.url, 'skills:read team:b');
    const first = await ask(paged, a, 'prompts/list');
    const cursor = first.body.result.nextCursor as string;
    expect(typeof cursor).toBe('string');
    // Team a pages on with it; team b, whose view is another list, gets the answer for any invalid cursor.
    expect((await ask(paged, a, 'prompts/list', { cursor })).body.result.prompts.length).toBe(1);
    expect((await ask(paged, b, 'prompts/list', { cursor })).body.error?.code).toBe(-32602);
  });
});
