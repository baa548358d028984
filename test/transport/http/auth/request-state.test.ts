/**
 * 2026-07-28 input-required state bound to the caller (basic/patterns/mrtr:
 * requestState SHOULD bind the principal): a prompt's missing argument is
 * asked of the user, the state that comes back is sealed with the token's
 * subject, and a retry with it under another subject's token is -32602,
 * exactly as a tampered state; under the same subject it completes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modernHeaders } from '../../../_http-client.js';
import { type Message, modernMeta } from '../../../_wire.js';
import { type Issuer, RS_CLIENT, startIssuer } from './_issuer.js';
import { type Served, serveWithOAuth } from './_server.js';

let issuer: Issuer;
let served: Served;
beforeAll(async () => {
  issuer = await startIssuer();
  served = await serveWithOAuth({
    issuer: issuer.url,
    introspection: { endpoint: `${issuer.url}/token/introspection`, clientId: RS_CLIENT.id, clientSecret: RS_CLIENT.secret },
  });
});
afterAll(async () => {
  await served?.close();
  await issuer?.stop();
});

async function getGreeting(token: string, extra: Message = {}): Promise<Message> {
  const meta = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
  const body = { jsonrpc: '2.0', id: 7, method: 'prompts/get', params: { name: 'greeting', arguments: {}, ...extra, _meta: meta } };
  const response = await fetch(served.url, {
    method: 'POST',
    headers: { ...modernHeaders(body), Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Message;
}

describe('requestState and the principal', () => {
  it.each([
    ['two subjects (JWT)', 'team-a', 'team-b'],
    // Introspection answers for client credentials name the client and no `sub`.
    ['two clients without sub (opaque tokens)', 'opaque', 'opaque-b'],
  ])("refuses one caller's state to another, and completes for the caller it was issued to: %s", async (_name, one, other) => {
    const alice = await issuer.token(one, served.url, 'skills:read');
    const bob = await issuer.token(other, served.url, 'skills:read');
    const first = await getGreeting(alice);
    expect(first.result.resultType).toBe('input_required');
    const [key, request] = Object.entries(first.result.inputRequests as Record<string, Message>)[0] as [string, Message];
    const field = Object.keys(request.params.requestedSchema.properties)[0] as string;
    const retry = { requestState: first.result.requestState, inputResponses: { [key]: { action: 'accept', content: { [field]: 'Ada' } } } };

    const stolen = await getGreeting(bob, retry);
    expect(stolen.error).toEqual({ code: -32602, message: 'Invalid or expired requestState', data: { field: 'requestState' } });
    const tampered = await getGreeting(alice, { ...retry, requestState: `${retry.requestState}x` });
    expect(tampered.error).toEqual(stolen.error);

    const done = await getGreeting(alice, retry);
    expect(done.result.messages[0].content.text).toContain('Ada');
  });
});
