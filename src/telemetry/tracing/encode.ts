/**
 * An OTLP `ExportTraceServiceRequest` (opentelemetry-proto
 * collector/trace/v1) of one resource, one scope and a batch of spans, in
 * the two encodings of OTLP/HTTP: binary protobuf (`http/protobuf`, the
 * specification's default) and the protobuf JSON mapping (`http/json`, with
 * trace and span ids as hex, as OTLP §JSON Protobuf Encoding requires).
 *
 * The protobuf writer knows only what these messages use: varints, 32- and
 * 64-bit little-endian fixed fields and length-delimited fields, the whole
 * request written into one buffer. It runs on the exporter's timer, never
 * on a request's path.
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

/**
 * Where a protobuf message is written: one buffer, grown by doubling. A
 * nested message's length is written after its body, which is moved right
 * when the length takes more than the one byte reserved for it.
 */
interface Out {
  buffer: Buffer;
  at: number;
}

function room(out: Out, bytes: number): void {
  if (out.at + bytes <= out.buffer.length) return;
  const grown = Buffer.allocUnsafe(Math.max(out.buffer.length * 2, out.at + bytes));
  out.buffer.copy(grown, 0, 0, out.at);
  out.buffer = grown;
}

function varintSize(value: number): number {
  let size = 1;
  for (let rest = value; rest > 0x7f; rest = Math.floor(rest / 0x80)) size++;
  return size;
}

function writeVarint(out: Out, value: number): void {
  room(out, 10);
  let rest = value;
  while (rest > 0x7f) {
    out.buffer[out.at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  out.buffer[out.at++] = rest;
}

function tag(out: Out, field: number, wireType: number): void {
  writeVarint(out, field * 8 + wireType);
}

/** A string field (omitted when empty, protobuf's default). */
function stringField(out: Out, field: number, text: string): void {
  if (text === '') return;
  const length = Buffer.byteLength(text, 'utf8');
  tag(out, field, LEN);
  writeVarint(out, length);
  room(out, length);
  out.at += out.buffer.write(text, out.at, 'utf8');
}

/** A bytes field holding the id written as hex in `hex`. */
function idField(out: Out, field: number, hex: string): void {
  tag(out, field, LEN);
  writeVarint(out, hex.length / 2);
  room(out, hex.length / 2);
  out.at += out.buffer.write(hex, out.at, 'hex');
}

function varintField(out: Out, field: number, value: number): void {
  if (value === 0) return;
  tag(out, field, VARINT);
  writeVarint(out, value);
}

function fixed32Field(out: Out, field: number, value: number): void {
  tag(out, field, I32);
  room(out, 4);
  out.at = out.buffer.writeUInt32LE(value, out.at);
}

function nanosField(out: Out, field: number, us: number): void {
  tag(out, field, I64);
  room(out, 8);
  out.at = out.buffer.writeBigUInt64LE(BigInt(us) * 1000n, out.at);
}

/** Opens a nested message at `field`; `close` writes its length once the body is written. */
function open(out: Out, field: number): number {
  tag(out, field, LEN);
  room(out, 1);
  return out.at++;
}

function close(out: Out, lengthAt: number): void {
  const length = out.at - lengthAt - 1;
  const extra = varintSize(length) - 1;
  if (extra > 0) {
    room(out, extra);
    out.buffer.copyWithin(lengthAt + 1 + extra, lengthAt + 1, out.at);
  }
  const end = out.at + extra;
  out.at = lengthAt;
  writeVarint(out, length);
  out.at = end;
}

/** `repeated KeyValue` at `field`, each value an `AnyValue.string_value` (never empty: an empty one is still sent). */
function attributesField(out: Out, field: number, attributes: Readonly<Record<string, string>>): void {
  for (const key in attributes) {
    const keyValue = open(out, field);
    stringField(out, 1, key);
    const anyValue = open(out, 2);
    const value = attributes[key] as string;
    if (value === '') {
      tag(out, 1, LEN);
      writeVarint(out, 0);
    } else stringField(out, 1, value);
    close(out, anyValue);
    close(out, keyValue);
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
  attributesField(out, 9, span.attributes);
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
