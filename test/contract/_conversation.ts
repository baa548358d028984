/**
 * How each revision talks, for the contract cases: its opening (`initialize`
 * and `notifications/initialized`, or `server/discover`), its envelope (the
 * 2026-07-28 `_meta` on every message), where change notifications reach the
 * client, and the exact responses it gives, so that a case compares whole
 * messages.
 */
import { expect } from 'vitest';
import type { RevisionName } from '../_schema.js';
import { initializeParams, type Message, MODERN_VERSION, modernMeta } from '../_wire.js';
import { SERVER_INFO } from './_server.js';
import { type ContractPeer, type MessageStream, SUBSCRIPTION_ID } from './_transport.js';

/** 2026-07-28 results that carry cache hints (a live prompt set: 10 s). */
const CACHED = new Set(['server/discover', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

/** How one revision talks: its opening, its envelope, and the exact results it gives. */
export class Conversation {
  readonly revision: RevisionName;
  readonly peer: ContractPeer;
  readonly stateless: boolean;
  #nextId = 0;

  constructor(revision: RevisionName, peer: ContractPeer) {
    this.revision = revision;
    this.peer = peer;
    this.stateless = revision === MODERN_VERSION;
  }

  /** Params as the revision sends them: with the `_meta` envelope on 2026-07-28. */
  params(params: Message = {}): Message {
    return this.stateless ? { ...params, _meta: modernMeta(this.revision) } : params;
  }

  /** A request with a fresh id. */
  message(method: string, params?: Message): Message {
    return { jsonrpc: '2.0', id: ++this.#nextId, method, params: this.params(params) };
  }

  request(method: string, params?: Message): Promise<Message> {
    return this.peer.request(this.message(method, params));
  }

  notification(method: string, params?: Message): Message {
    return { jsonrpc: '2.0', method, params: this.params(params) };
  }

  /** Opens the conversation: `initialize` and `notifications/initialized`, or `server/discover`. */
  async open(): Promise<Message> {
    if (this.stateless) return this.request('server/discover');
    const response = await this.peer.request({ jsonrpc: '2.0', id: ++this.#nextId, method: 'initialize', params: initializeParams(this.revision) });
    await this.peer.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  /** Every prompt name, page by page. */
  async promptNames(): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const response = await this.request('prompts/list', cursor === undefined ? {} : { cursor });
      expect(response.result, JSON.stringify(response)).toBeDefined();
      names.push(...response.result.prompts.map((prompt: Message) => prompt.name));
      cursor = response.result.nextCursor;
    } while (cursor !== undefined && names.length < 100);
    return names;
  }

  /**
   * Where prompt list changes reach the client, and the notification that
   * says so: the session's unprompted messages (2025), or a listen stream
   * that asked for them, whose notifications name it (2026-07-28).
   */
  async watchPrompts(): Promise<{ changes: MessageStream; notification: Message }> {
    if (!this.stateless) return { changes: await this.peer.unprompted(), notification: { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' } };
    const listen = this.message('subscriptions/listen', { notifications: { promptsListChanged: true } });
    const changes = await this.peer.stream(listen);
    const tag = { _meta: { [SUBSCRIPTION_ID]: listen.id } };
    expect(await changes.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged')).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { promptsListChanged: true }, ...tag },
    });
    return { changes, notification: { jsonrpc: '2.0', method: 'notifications/prompts/list_changed', params: tag } };
  }

  /** The whole response the revision gives for `method` with `result`. */
  success(method: string, response: Message, result: Message): void {
    const full = this.stateless
      ? {
          ...result,
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
          ...(CACHED.has(method) ? { ttlMs: 10_000, cacheScope: 'public' } : {}),
        }
      : result;
    expect(response).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: full });
  }

  /** An error response to a request of this conversation. */
  failure(response: Message, error: Message): void {
    expect(response).toEqual({ jsonrpc: '2.0', id: expect.any(Number), error });
  }
}
