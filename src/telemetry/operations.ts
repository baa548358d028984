/**
 * The server's MCP metrics as the OpenTelemetry semantic conventions for MCP
 * name them (gen-ai/mcp.md, "Metrics"): `mcp.server.operation.duration` per
 * request and `mcp.server.session.duration` per 2025 session, both
 * histograms in seconds, with `mcp.method.name`, `mcp.protocol.version`,
 * `error.type`, `gen_ai.prompt.name` / `gen_ai.tool.name` where they apply
 * and `network.transport`; and the server's own count of requests in flight.
 *
 * Labels come from what the server serves, never from what a client sent:
 * the method is one of the revision's, and a prompt's or tool's name is
 * kept only when the request was answered without an error about its
 * params (an unknown name is -32602), so a client cannot open series.
 */
import type { JsonRpcResponse } from '../jsonrpc/messages.js';
import type { ObservedRequest, RequestObserver } from '../server/index.js';
import type { Labels, MetricsRegistry } from './registry.js';

/** Bucket bounds of both durations: the conventions' advisory bounds, with three below 10 ms for a server that answers in microseconds. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const OPERATION_LABELS = ['mcp_method_name', 'mcp_protocol_version', 'error_type', 'gen_ai_prompt_name', 'gen_ai_tool_name', 'network_transport'];

/** JSON-RPC's "invalid params": the name in them may be unknown. */
const INVALID_PARAMS = -32602;

/**
 * `error.type` of an answer (gen-ai/mcp.md: the JSON-RPC error code as a
 * string, or `tool_error` for a tool call whose result has `isError`), or
 * undefined for a success; `cancelled` when nothing was sent.
 */
export function errorTypeOf(response: JsonRpcResponse | undefined): string | undefined {
  if (response === undefined) return 'cancelled';
  if ('error' in response) return String(response.error.code);
  return (response.result as { isError?: unknown }).isError === true ? 'tool_error' : undefined;
}

/** The prompt or tool a request names, when the answer shows the server serves it. */
export function targetOf(request: ObservedRequest, errorType: string | undefined): { prompt?: string; tool?: string } {
  const name = request.params.name;
  if (typeof name !== 'string' || errorType === String(INVALID_PARAMS) || errorType === 'cancelled') return {};
  if (request.method === 'prompts/get') return errorType === undefined ? { prompt: name } : {};
  if (request.method === 'tools/call') return { tool: name };
  return {};
}

/** Records the MCP metrics of every request and session `server.observe` tells it of. */
export function operationMetrics(registry: MetricsRegistry): RequestObserver {
  const operations = registry.histogram(
    'mcp_server_operation_duration_seconds',
    'MCP request duration as observed on the server, from receipt until the answer is handed to the transport (mcp.server.operation.duration).',
    OPERATION_LABELS,
    DURATION_BUCKETS,
  );
  const sessions = registry.histogram(
    'mcp_server_session_duration_seconds',
    'Duration of a 2025 MCP session as observed on the server (mcp.server.session.duration).',
    ['mcp_protocol_version', 'network_transport'],
    DURATION_BUCKETS,
  );
  const inFlight = registry.gauge('skillport_requests_in_flight', 'MCP requests being handled.');
  return {
    request(request) {
      const started = performance.now();
      inFlight.add(1);
      return (response) => {
        inFlight.add(-1);
        const errorType = errorTypeOf(response);
        const target = targetOf(request, errorType);
        const labels: Labels = {
          mcp_method_name: request.method,
          mcp_protocol_version: request.protocolVersion,
          error_type: errorType,
          gen_ai_prompt_name: target.prompt,
          gen_ai_tool_name: target.tool,
          network_transport: request.peer.network,
        };
        operations.observe((performance.now() - started) / 1000, labels);
      };
    },
    session(version, peer) {
      const started = performance.now();
      return () => sessions.observe((performance.now() - started) / 1000, { mcp_protocol_version: version, network_transport: peer.network });
    },
  };
}
