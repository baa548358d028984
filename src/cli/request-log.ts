/**
 * One log entry per MCP request, at level debug, from the server's observer
 * (server/observer.ts): the method, the JSON-RPC id, the session, the
 * revision, the transport, the duration and the outcome, and the prompt or
 * tool named when the server serves it (the rule telemetry's labels follow,
 * `targetOf`). Never the params or the result: they carry what users type,
 * and may carry credentials. `serve` installs it only at `--log-level debug`,
 * so at any other level a request costs nothing here.
 */
import type { ObservedRequest, RequestObserver } from '../index.js';
import { errorTypeOf, targetOf } from '../telemetry.js';
import type { CliLogger } from './logger.js';

/** What a request's entry says, but its message. */
export function requestFields(request: ObservedRequest, errorType: string | undefined, durationMs: number): Record<string, unknown> {
  const fields: Record<string, unknown> = { method: request.method, id: request.id };
  const { sessionId, network } = request.peer;
  if (sessionId !== undefined) fields.session = sessionId;
  fields.protocolVersion = request.protocolVersion;
  if (network !== undefined) fields.transport = network;
  fields.durationMs = durationMs;
  if (errorType === undefined) fields.outcome = 'ok';
  else if (errorType === 'cancelled' || errorType === 'tool_error') fields.outcome = errorType;
  else {
    fields.outcome = 'error';
    fields.code = Number(errorType);
  }
  const { prompt, tool } = targetOf(request, errorType);
  if (prompt !== undefined) fields.prompt = prompt;
  if (tool !== undefined) fields.tool = tool;
  return fields;
}

/** Logs every request `server.observe` tells it of, as it ends, at level debug. */
export function requestLog(logger: CliLogger): RequestObserver {
  return {
    request(request) {
      const started = performance.now();
      return (response) => {
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        logger.entry('debug', 'request', requestFields(request, errorTypeOf(response), durationMs));
      };
    },
  };
}
