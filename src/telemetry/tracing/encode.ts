/**
 * An OTLP `ExportTraceServiceRequest` (opentelemetry-proto
 * collector/trace/v1) of one resource, one scope and a batch of spans, in
 * the two encodings of OTLP/HTTP: binary protobuf (`http/protobuf`, the
 * specification's default) and the protobuf JSON mapping (`http/json`, with
 * trace and span ids as hex, as OTLP §JSON Protobuf Encoding requires).
 *
 * The protobuf is written by protobuf.ts, the whole request into one
 * buffer, on the exporter's timer, never on a request's path.
 */
import { close, fixed32Field, idField, nanosField, type Out, open, room, stringField, varintField } from './protobuf.js';
import { type SpanRecord, STATUS_UNSET } from './spans.js';

/** The instrumentation scope every span is reported under. */
export interface Scope {
  readonly name: string;
  readonly version: string;
}

/** OTLP `Span.SpanKind.SPAN_KIND_SERVER`. */
const KIND_SERVER = 2;
/** `Span.flags`: the W3C sampled flag, and bits 8 and 9 saying whether the parent is known to be remote (trace.proto `SpanFlags`). */
const SAMPLED = 0x01;
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

function flagsOf(span: SpanRecord): number {
  return SAMPLED | HAS_IS_REMOTE | (span.parentSpanId === undefined ? 0 : IS_REMOTE);
}

/** A link's flags: its context always comes from another process. */
const LINK_FLAGS = HAS_IS_REMOTE | IS_REMOTE;

function nanos(us: number): string {
  return `${us}000`;
}

function jsonAttributes(attributes: Readonly<Record<string, string>>): { key: string; value: { stringValue: string } }[] {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: { stringValue: value } }));
}

function jsonSpan(span: SpanRecord): Record<string, unknown> {
  const out: Record<string, unknown> = { traceId: span.traceId, spanId: span.spanId };
  if (span.traceState !== undefined) out.traceState = span.traceState;
  if (span.parentSpanId !== undefined) out.parentSpanId = span.parentSpanId;
  out.flags = flagsOf(span);
  out.name = span.name;
  out.kind = KIND_SERVER;
  out.startTimeUnixNano = nanos(span.startUs);
  out.endTimeUnixNano = nanos(span.endUs);
  out.attributes = jsonAttributes(span.attributes);
  if (span.link !== undefined) {
    const { traceId, spanId, traceState } = span.link;
    out.links = [{ traceId, spanId, ...(traceState !== undefined ? { traceState } : {}), flags: LINK_FLAGS }];
  }
  out.status = span.status === STATUS_UNSET ? {} : { code: span.status, ...(span.statusMessage !== undefined ? { message: span.statusMessage } : {}) };
  return out;
}

/** The request as OTLP/JSON. */
export function encodeJson(resource: Readonly<Record<string, string>>, scope: Scope, spans: readonly SpanRecord[]): string {
  return JSON.stringify({
    resourceSpans: [{ resource: { attributes: jsonAttributes(resource) }, scopeSpans: [{ scope, spans: spans.map(jsonSpan) }] }],
  });
}

/**
 * The encoded `KeyValue` of a span attribute, by key then value, for the
 * pairs met before: most repeat span after span (the method, the protocol
 * version, the transport, the prompt), and copying their bytes costs a third
 * of writing them (PERFORMANCE.md, Tracing). Bounded: at most KEYS_KEPT keys,
 * VALUES_KEPT values each (a key whose values vary, as a request id's do,
 * fills its share and is then written each time), pairs of PAIR_KEPT bytes
 * at most.
 */
const known = new Map<string, Map<string, Uint8Array>>();
const KEYS_KEPT = 64;
const VALUES_KEPT = 32;
const PAIR_KEPT = 256;

/** One `KeyValue` at `field`, its value an `AnyValue.string_value` (never empty: an empty one is still sent). */
function keyValueField(out: Out, field: number, key: string, value: string): void {
  const keyValue = open(out, field);
  stringField(out, 1, key);
  const anyValue = open(out, 2);
  stringField(out, 1, value, true);
  close(out, anyValue);
  close(out, keyValue);
}

/** `repeated KeyValue` at `field`. */
function attributesField(out: Out, field: number, attributes: Readonly<Record<string, string>>): void {
  for (const key in attributes) keyValueField(out, field, key, attributes[key] as string);
}

/** A span's attributes (field 9), pairs met before copied from {@link known}. */
function spanAttributesField(out: Out, attributes: Readonly<Record<string, string>>): void {
  for (const key in attributes) {
    const value = attributes[key] as string;
    let byValue = known.get(key);
    const bytes = byValue?.get(value);
    if (bytes !== undefined) {
      room(out, bytes.length);
      out.buffer.set(bytes, out.at);
      out.at += bytes.length;
      continue;
    }
    const start = out.at;
    keyValueField(out, 9, key, value);
    if (byValue === undefined && known.size < KEYS_KEPT) known.set(key, (byValue = new Map()));
    // A copy of its own: the batch's buffer may be a slice of node's shared pool, whose bytes are reused.
    if (byValue !== undefined && byValue.size < VALUES_KEPT && out.at - start <= PAIR_KEPT)
      byValue.set(value, new Uint8Array(out.buffer.subarray(start, out.at)));
  }
}

function protoSpan(out: Out, span: SpanRecord): void {
  idField(out, 1, span.traceId);
  idField(out, 2, span.spanId);
  stringField(out, 3, span.traceState ?? '');
  if (span.parentSpanId !== undefined) idField(out, 4, span.parentSpanId);
  stringField(out, 5, span.name);
  varintField(out, 6, KIND_SERVER);
  nanosField(out, 7, span.startUs);
  nanosField(out, 8, span.endUs);
  spanAttributesField(out, span.attributes);
  if (span.link !== undefined) {
    const link = open(out, 13);
    idField(out, 1, span.link.traceId);
    idField(out, 2, span.link.spanId);
    stringField(out, 3, span.link.traceState ?? '');
    fixed32Field(out, 6, LINK_FLAGS);
    close(out, link);
  }
  const status = open(out, 15);
  stringField(out, 2, span.statusMessage ?? '');
  varintField(out, 3, span.status);
  close(out, status);
  fixed32Field(out, 16, flagsOf(span));
}

/** The request as binary protobuf. */
export function encodeProtobuf(resource: Readonly<Record<string, string>>, scope: Scope, spans: readonly SpanRecord[]): Uint8Array {
  const out: Out = { buffer: Buffer.allocUnsafe(1024 + spans.length * 512), at: 0 };
  const resourceSpans = open(out, 1);
  const resourceAt = open(out, 1);
  attributesField(out, 1, resource);
  close(out, resourceAt);
  const scopeSpans = open(out, 2);
  const scopeAt = open(out, 1);
  stringField(out, 1, scope.name);
  stringField(out, 2, scope.version);
  close(out, scopeAt);
  for (const span of spans) {
    const spanAt = open(out, 2);
    protoSpan(out, span);
    close(out, spanAt);
  }
  close(out, scopeSpans);
  close(out, resourceSpans);
  return out.buffer.subarray(0, out.at);
}
