/**
 * 2026-07-28 `cacheScope` against what the answer depends on: "public" may
 * be served across authorization contexts (server/utilities/caching), so an
 * answer that may differ by who asks must say "private". For each cacheable
 * method, three principals (team a, team b, no team) ask the same; the
 * scope must be "private" exactly when their answers differ, on a folder
 * with audiences and on one without.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from '../../../_http-client.js';
import { type Message, modernMeta } from '../../../_wire.js';
import { writeFolder } from './_folder.js';
import { type Issuer, startIssuer } from './_issuer.js';
import { type Served, SKILLS, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let withAudiences: Served;
let without: Served;
let folder: { remove(): void };

beforeAll(async () => {
  issuer = await startIssuer();
  const written = writeFolder();
  folder = written;
  withAudiences = await serveWithOAuth({ issuer: issuer.url, scopes: ['skills:read'] }, written.dir);
  without = await serveWithOAuth({ issuer: issuer.url, scopes: ['skills:read'] }, SKILLS);
});
afterAll(async () => {
  await withAudiences?.close();
  await without?.close();
  folder?.remove();
  await issuer?.stop();
});

const PRINCIPALS: Array<[string, string]> = [
  ['team-a', 'skills:read team:a'],
  ['team-b', 'skills:read team:b'],
  ['team-a', 'skills:read'],
];

async function ask(served: Served, token: string, method: string, params: Message): Promise<Message> {
  const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: modernMeta() } };
  const response = await fetch(served.url, {
    method: 'POST',
    headers: { ...modernHeaders(body), Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${JSON.stringify(params)}`).toBe(200);
  return (await response.json()) as Message;
}

/** The answer without its scope: what the principals' answers are compared on. */
function unscoped(answer: Message): Message {
  if (!answer.result) return answer;
  const { cacheScope: _, ...result } = answer.result;
  return { ...answer, result };
}

const TEMPLATE = { type: 'ref/resource', uri: 'skill://{skill}/{+path}' };
const read = (uri: string): [string, Message] => ['resources/read', { uri }];
const get = (uri: string): [string, Message] => ['skills/get', { uri }];
const directory = (uri: string): [string, Message] => ['resources/directory/read', { uri }];
const LISTS: Array<[string, Message]> = [
  ['server/discover', {}],
  ['prompts/list', {}],
  ['tools/list', {}],
  ['resources/list', {}],
  ['resources/templates/list', {}],
  ['skills/list', {}],
];

/** Cacheable requests on each folder: every list, and gets and reads of open, restricted and shared skills. */
const PROBES: Record<'audiences' | 'none', Array<[string, Message]>> = {
  audiences: [
    ...LISTS,
    ...['public-notes', 'alpha-playbook', 'beta-runbook', 'shared-style', 'outer'].flatMap((name) => [
      get(`skill://${name}/SKILL.md`),
      read(`skill://${name}/SKILL.md`),
      directory(`skill://${name}`),
    ]),
    read('skill://outer/parts/notes.md'),
    read('skill://alpha-playbook/references/guide.md'),
    directory('skill://outer/parts'),
  ],
  none: [
    ...LISTS,
    ...['greeting', 'pdf-tools'].flatMap((name) => [get(`skill://${name}/SKILL.md`), read(`skill://${name}/SKILL.md`), directory(`skill://${name}`)]),
    read('skill://pdf-tools/references/forms.md'),
  ],
};

/** Requests whose results carry no cache hints in 2026-07-28. */
const UNCACHED: Array<[string, Message]> = [
  ['completion/complete', { ref: TEMPLATE, argument: { name: 'skill', value: '' } }],
  ['tools/call', { name: 'load_skill', arguments: { query: 'notes' } }],
];

describe('cacheScope follows what the answer depends on', () => {
  it.each([
    ['a folder with audiences', 'audiences' as const, () => withAudiences],
    ['a folder without audiences', 'none' as const, () => without],
  ])('on %s, a cacheable answer is "private" exactly when two principals are answered differently', async (_name, which, served) => {
    const tokens = await Promise.all(PRINCIPALS.map(([client, scope]) => issuer.token(client, served().url, scope)));
    const scopes: string[] = [];
    for (const [method, params] of PROBES[which]) {
      const answers = await Promise.all(tokens.map((token) => ask(served(), token, method, params)));
      const differ = new Set(answers.map((answer) => JSON.stringify(unscoped(answer)))).size > 1;
      for (const answer of answers) {
        if (!answer.result) continue;
        const scope = answer.result.cacheScope;
        scopes.push(scope);
        expect(scope, `${method} ${JSON.stringify(params)}: answers ${differ ? 'differ' : 'agree'}`).toBe(differ ? 'private' : 'public');
      }
    }
    // Both kinds were met where they should be.
    expect(new Set(scopes)).toEqual(new Set(which === 'audiences' ? ['public', 'private'] : ['public']));
    for (const [method, params] of UNCACHED) {
      for (const token of tokens) expect((await ask(served(), token, method, params)).result?.cacheScope).toBeUndefined();
    }
  });
});
