/**
 * An OTLP `ExportTraceServiceRequest` (opentelemetry-proto
 * collector/trace/v1) of one resource, one scope and a batch of spans, in
 * the two encodings of OTLP/HTTP: binary protobuf (`http/protobuf`, the
 * specification's default) and the protobuf JSON mapping (`http/json`, with
 * trace and span ids as hex, as OTLP §JSON Protobuf Encoding requires).
 *
 * The protobuf writer knows only what these messages use: varints, 32- and
 * 64-bit little-endian fixed fields and length-delimited fields, each
 * message encoded before the one that holds it. It runs on the exporter's
 * timer, never on a request's path.
 */
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

// Protobuf wire types (protobuf encoding §Message Structure).
const VARINT = 0;
const I64 = 1;
const LEN = 2;
const I32 = 5;

/** A message's fields, encoded, in order. */
type Fields = Buffer[];

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** Field keys encoded once: the messages here use a few dozen. */
const keys = new Map<number, Buffer>();

function tag(field: number, wireType: number): Buffer {
  const key = field * 8 + wireType;
  let encoded = keys.get(key);
  if (encoded === undefined) keys.set(key, (encoded = varint(key)));
  return encoded;
}

function bytesField(out: Fields, field: number, body: Buffer): void {
  out.push(tag(field, LEN), varint(body.length), body);
}

function stringField(out: Fields, field: number, text: string): void {
  if (text !== '') bytesField(out, field, Buffer.from(text, 'utf8'));
}

function messageField(out: Fields, field: number, inner: Fields): void {
  bytesField(out, field, Buffer.concat(inner));
}

function varintField(out: Fields, field: number, value: number): void {
  if (value !== 0) out.push(tag(field, VARINT), varint(value));
}

function fixed32Field(out: Fields, field: number, value: number): void {
  const body = Buffer.alloc(4);
  body.writeUInt32LE(value);
  out.push(tag(field, I32), body);
}

function nanosField(out: Fields, field: number, us: number): void {
  const body = Buffer.alloc(8);
  body.writeBigUInt64LE(BigInt(us) * 1000n);
  out.push(tag(field, I64), body);
}

/** `repeated KeyValue` at `field`, each value an `AnyValue.string_value`. */
function attributesField(out: Fields, field: number, attributes: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(attributes)) {
    const anyValue: Fields = [];
    bytesField(anyValue, 1, Buffer.from(value, 'utf8'));
    const keyValue: Fields = [];
    stringField(keyValue, 1, key);
    messageField(keyValue, 2, anyValue);
    messageField(out, field, keyValue);
  }
}

function protoSpan(span: SpanRecord): Fields {
  const out: Fields = [];
  bytesField(out, 1, Buffer.from(span.traceId, 'hex'));
  bytesField(out, 2, Buffer.from(span.spanId, 'hex'));
  stringField(out, 3, span.traceState ?? '');
  if (span.parentSpanId !== undefined) bytesField(out, 4, Buffer.from(span.parentSpanId, 'hex'));
  stringField(out, 5, span.name);
  varintField(out, 6, KIND_SERVER);
  nanosField(out, 7, span.startUs);
  nanosField(out, 8, span.endUs);
  attributesField(out, 9, span.attributes);
  if (span.link !== undefined) {
    const link: Fields = [];
    bytesField(link, 1, Buffer.from(span.link.traceId, 'hex'));
    bytesField(link, 2, Buffer.from(span.link.spanId, 'hex'));
    stringField(link, 3, span.link.traceState ?? '');
    fixed32Field(link, 6, LINK_FLAGS);
    messageField(out, 13, link);
  }
  const status: Fields = [];
  stringField(status, 2, span.statusMessage ?? '');
  varintField(status, 3, span.status);
  messageField(out, 15, status);
  fixed32Field(out, 16, flagsOf(span));
  return out;
}

/** The request as binary protobuf. */
export function encodeProtobuf(resource: Readonly<Record<string, string>>, scope: Scope, spans: readonly SpanRecord[]): Uint8Array {
  const resourceFields: Fields = [];
  attributesField(resourceFields, 1, resource);
  const scopeFields: Fields = [];
  stringField(scopeFields, 1, scope.name);
  stringField(scopeFields, 2, scope.version);
  const scopeSpans: Fields = [];
  messageField(scopeSpans, 1, scopeFields);
  for (const span of spans) messageField(scopeSpans, 2, protoSpan(span));
  const resourceSpans: Fields = [];
  messageField(resourceSpans, 1, resourceFields);
  messageField(resourceSpans, 2, scopeSpans);
  const request: Fields = [];
  messageField(request, 1, resourceSpans);
  return Buffer.concat(request);
}
