/**
 * One SERVER span per request, as the OpenTelemetry semantic conventions for
 * MCP describe it (gen-ai/mcp.md, "Server"): named `{mcp.method.name}
 * {target}`, the target being the tool or prompt named when the server
 * serves it (operations.ts `targetOf`, the rule the metrics follow too);
 * `mcp.*`, `jsonrpc.request.id`, `gen_ai.*` and `network.*` attributes;
 * `error.type` and status ERROR on a failed answer. The parent is the
 * trace context in the request's `params._meta` (gen-ai/mcp.md "Context
 * propagation": instrumentations SHOULD propagate it there), else the HTTP
 * request's `traceparent`; when both are there, the HTTP one becomes a link
 * (the server SHOULD link the ambient context).
 *
 * Nothing is built for a request that is not sampled; a sampled one costs
 * two ids and a clock read at its start, and its record at its end.
 */
import type { JsonRpcResponse } from '../../jsonrpc/messages.js';
import type { ObservedRequest, RequestObserver } from '../../server/index.js';
import { errorTypeOf, targetOf } from '../operations.js';
import type { SamplerConfig } from './config.js';
import { newSpanId, newTraceId, parseTraceparent, type SpanContext } from './context.js';

/** OTLP `Status.code`: unset, or ERROR. */
export const STATUS_UNSET = 0;
export const STATUS_ERROR = 2;

/** A finished span, as the encoders take it: every attribute a string. */
export interface SpanRecord {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string | undefined;
  readonly traceState?: string | undefined;
  readonly name: string;
  /** Microseconds since the epoch. */
  readonly startUs: number;
  readonly endUs: number;
  readonly attributes: Readonly<Record<string, string>>;
  readonly status: typeof STATUS_UNSET | typeof STATUS_ERROR;
  readonly statusMessage?: string | undefined;
  /** The HTTP request's context, when the parent came from `_meta` instead. */
  readonly link?: SpanContext | undefined;
}

/** Longest client-given string kept on a span (a resource URI, an error message naming one). */
const TEXT_KEPT = 1024;
/** The methods whose `uri` param names a resource (gen-ai/mcp.md note on `mcp.resource.uri`). */
const URI_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/** When the process began, read once: `performance.timeOrigin` is a getter, and spans read the clock twice. */
const TIME_ORIGIN = performance.timeOrigin;

/** Microseconds since the epoch, as a safe integer (nanoseconds would not be). */
export function nowUs(): number {
  return Math.round((TIME_ORIGIN + performance.now()) * 1000);
}

function capped(text: string): string {
  return text.length > TEXT_KEPT ? text.slice(0, TEXT_KEPT) : text;
}

/** Whether a new span of `traceId` is kept (OpenTelemetry SDK §Built-in samplers). */
export function sampledBy(sampler: SamplerConfig, parent: SpanContext | undefined, traceId: string): boolean {
  if (parent !== undefined && sampler.parentBased) return parent.sampled;
  if (sampler.ratio >= 1) return true;
  if (sampler.ratio <= 0) return false;
  // TraceIdRatioBased: the trace id's low 52 bits as a fraction, so every span of a trace decides alike.
  return Number.parseInt(traceId.slice(19), 16) < sampler.ratio * 2 ** 52;
}

/** The request's `_meta` context and the transport's, each when valid. */
function contextsOf(request: ObservedRequest): { meta: SpanContext | undefined; http: SpanContext | undefined } {
  const meta = request.params._meta;
  const carried = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
  return {
    meta: carried === undefined ? undefined : parseTraceparent(carried.traceparent, carried.tracestate),
    http: request.facts.traceparent === undefined ? undefined : parseTraceparent(request.facts.traceparent, request.facts.tracestate),
  };
}

/** The span's attributes, name and status once its answer is known. */
function finish(request: ObservedRequest, response: JsonRpcResponse | undefined): Pick<SpanRecord, 'name' | 'attributes' | 'status' | 'statusMessage'> {
  const errorType = errorTypeOf(response);
  const target = targetOf(request, errorType);
  const attributes: Record<string, string> = { 'mcp.method.name': request.method, 'mcp.protocol.version': request.protocolVersion };
  if (request.id !== null) attributes['jsonrpc.request.id'] = String(request.id);
  if (request.peer.sessionId !== undefined) attributes['mcp.session.id'] = request.peer.sessionId;
  if (request.peer.network !== undefined) attributes['network.transport'] = request.peer.network;
  if (request.peer.network === 'tcp') attributes['network.protocol.name'] = 'http';
  const uri = request.params.uri;
  if (URI_METHODS.has(request.method) && typeof uri === 'string') attributes['mcp.resource.uri'] = capped(uri);
  if (request.method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
  if (target.tool !== undefined) attributes['gen_ai.tool.name'] = target.tool;
  if (target.prompt !== undefined) attributes['gen_ai.prompt.name'] = target.prompt;
  const named = target.tool ?? target.prompt;
  const name = named === undefined ? request.method : `${request.method} ${named}`;
  if (errorType === undefined) return { name, attributes, status: STATUS_UNSET, statusMessage: undefined };
  attributes['error.type'] = errorType;
  // A cancelled request failed at nothing: its span says why it ended, with no error status.
  if (response === undefined) return { name, attributes, status: STATUS_UNSET, statusMessage: undefined };
  if (!('error' in response)) return { name, attributes, status: STATUS_ERROR, statusMessage: undefined };
  attributes['rpc.response.status_code'] = errorType;
  return { name, attributes, status: STATUS_ERROR, statusMessage: capped(response.error.message) };
}

/**
 * An observer that hands `sink` one span per sampled request when it ends;
 * what a request that is not sampled costs is the parse of its context.
 */
export function requestSpans(sampler: SamplerConfig, sink: (span: SpanRecord) => void): RequestObserver {
  return {
    request(request) {
      const startUs = nowUs();
      const { meta, http } = contextsOf(request);
      const parent = meta ?? http;
      const traceId = parent?.traceId ?? newTraceId();
      if (!sampledBy(sampler, parent, traceId)) return undefined;
      const spanId = newSpanId();
      return (response) => {
        const endUs = nowUs();
        const { name, attributes, status, statusMessage } = finish(request, response);
        sink({
          traceId,
          spanId,
          parentSpanId: parent?.spanId,
          traceState: parent?.traceState,
          name,
          startUs,
          endUs,
          attributes,
          status,
          statusMessage,
          link: meta !== undefined && http !== undefined && http.spanId !== meta.spanId ? http : undefined,
        });
      };
    },
  };
}
