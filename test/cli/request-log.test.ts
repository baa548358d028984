import { describe, expect, it } from 'vitest';
import { createStderrLogger } from '../../src/cli/logger.js';
import { requestFields, requestLog } from '../../src/cli/request-log.js';
import type { ObservedRequest } from '../../src/index.js';

function request(method: string, params: Record<string, unknown>, peer = {} as ObservedRequest['peer']): ObservedRequest {
  return { method, id: 'r1', params, protocolVersion: '2025-11-25', facts: {} as ObservedRequest['facts'], peer };
}

describe('the request log', () => {
  it('names the outcome, the code of an error, and a prompt or tool only when it is served', () => {
    const served = request('prompts/get', { name: 'greeting', arguments: { who: 'secret' } }, { network: 'tcp', sessionId: 's1' } as ObservedRequest['peer']);
    expect(requestFields(served, undefined, 1.5)).toEqual({
      method: 'prompts/get',
      id: 'r1',
      session: 's1',
      protocolVersion: '2025-11-25',
      transport: 'tcp',
      durationMs: 1.5,
      outcome: 'ok',
      prompt: 'greeting',
    });
    expect(requestFields(served, '-32602', 0)).toMatchObject({ outcome: 'error', code: -32602 });
    expect(requestFields(served, '-32602', 0)).not.toHaveProperty('prompt');
    const call = request('tools/call', { name: 'load_skill' });
    expect(requestFields(call, 'tool_error', 0)).toEqual({
      method: 'tools/call',
      id: 'r1',
      protocolVersion: '2025-11-25',
      durationMs: 0,
      outcome: 'tool_error',
      tool: 'load_skill',
    });
    expect(requestFields(call, 'cancelled', 0)).toEqual({ method: 'tools/call', id: 'r1', protocolVersion: '2025-11-25', durationMs: 0, outcome: 'cancelled' });
  });

  it('writes one debug entry as the request ends, without its params', () => {
    const lines: string[] = [];
    const observer = requestLog(createStderrLogger('debug', (line) => lines.push(line), 'json'));
    const end = observer.request?.(request('tools/call', { name: 'load_skill', arguments: { token: 'hunter2' } }));
    expect(lines).toEqual([]);
    end?.({ jsonrpc: '2.0', id: 'r1', error: { code: -32603, message: 'Internal error' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('hunter2');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'debug',
      msg: 'request',
      method: 'tools/call',
      outcome: 'error',
      code: -32603,
      tool: 'load_skill',
    });
  });
});
