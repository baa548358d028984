/**
 * What the HTTP transport alone can count, for `HttpOptions.metrics`: its
 * refusals by reason (errors.ts: every `Rejection` names one of a fixed
 * set), and the legacy sessions and long-lived streams it holds open. The
 * MCP requests themselves are counted from the server's observers
 * (telemetry/operations.ts), whatever the transport.
 */
import type { MetricsRegistry } from '../../telemetry/registry.js';
import type { HttpReply } from './request.js';

/** The transport's metrics: a pass-through for replies that counts refusals, and the stream gauge's step. */
export interface HttpMetrics {
  counted(reply: HttpReply): HttpReply;
  streams(delta: number): void;
}

export function httpMetrics(registry: MetricsRegistry, openSessions: () => number): HttpMetrics {
  const refusals = registry.counter(
    'skillport_http_refusals_total',
    'HTTP requests the transport refused before the server saw them, by reason (host, origin, auth, body_size, stream_cap, shutdown, ...).',
    ['reason'],
  );
  const streams = registry.gauge('skillport_http_streams_open', 'Long-lived streams open: 2026-07-28 listen requests and 2025 GET streams.');
  registry.gaugeOf('skillport_http_sessions_open', '2025 sessions this replica holds.', [], () => [[{}, openSessions()]]);
  return {
    counted(reply) {
      if (reply.refusal !== undefined) refusals.add({ reason: reply.refusal });
      return reply;
    },
    streams: (delta) => streams.add(delta),
  };
}
