/**
 * A small OTLP/HTTP traces receiver on 127.0.0.1 for the tracing tests: it
 * takes every POST, decodes it as OTLP/JSON or binary protobuf by its
 * content type (the protobuf read by a decoder written here from
 * opentelemetry-proto's trace.proto, so the server's encoder is checked
 * against an independent reading of the schema), and keeps each span in
 * one normalized shape. It answers 200, or the statuses it is told to give
 * first (to test retries).
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  kind: number;
  start: bigint;
  end: bigint;
  attributes: Record<string, string>;
  status: { code: number; message: string };
  links: Array<{ traceId: string; spanId: string; traceState: string }>;
  flags: number;
  resource: Record<string, string>;
  scope: { name: string; version: string };
}

export interface Received {
  contentType: string;
  headers: IncomingMessage['headers'];
  spans: ReceivedSpan[];
}

type Field = { field: number; wire: number; value: bigint | Buffer };

/** Every field of one protobuf message, in order (varint, fixed64, length-delimited, fixed32). */
function fields(buffer: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = buffer[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const [field, wire] = [key >> 3, key & 7];
    if (wire === 0) out.push({ field, wire, value: varint() });
    else if (wire === 1) out.push({ field, wire, value: buffer.readBigUInt64LE((at += 8) - 8) });
    else if (wire === 5) out.push({ field, wire, value: BigInt(buffer.readUInt32LE((at += 4) - 4)) });
    else if (wire === 2) {
      const length = Number(varint());
      out.push({ field, wire, value: buffer.subarray(at, (at += length)) });
    } else throw new Error(`wire type ${wire}`);
  }
  return out;
}

const all = (message: Field[], field: number) => message.filter((f) => f.field === field).map((f) => f.value);
const one = (message: Field[], field: number) => all(message, field).at(-1);
const bytes = (message: Field[], field: number) => (one(message, field) as Buffer | undefined) ?? Buffer.alloc(0);
const text = (message: Field[], field: number) => bytes(message, field).toString('utf8');
const hex = (message: Field[], field: number) => bytes(message, field).toString('hex');
const num = (message: Field[], field: number) => Number((one(message, field) as bigint | undefined) ?? 0n);

/** `repeated KeyValue`, string values only (all the server sends). */
function protoAttributes(message: Field[], field: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of all(message, field)) {
    const pair = fields(kv as Buffer);
    out[text(pair, 1)] = text(fields(bytes(pair, 2)), 1);
  }
  return out;
}

/** An ExportTraceServiceRequest read back into spans. */
export function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of all(fields(body), 1)) {
    const resourceSpans = fields(rs as Buffer);
    const resource = protoAttributes(fields(bytes(resourceSpans, 1)), 1);
    for (const ss of all(resourceSpans, 2)) {
      const scopeSpans = fields(ss as Buffer);
      const scopeFields = fields(bytes(scopeSpans, 1));
      const scope = { name: text(scopeFields, 1), version: text(scopeFields, 2) };
      for (const s of all(scopeSpans, 2)) {
        const span = fields(s as Buffer);
        const status = fields(bytes(span, 15));
        spans.push({
          traceId: hex(span, 1),
          spanId: hex(span, 2),
          traceState: text(span, 3),
          parentSpanId: hex(span, 4),
          name: text(span, 5),
          kind: num(span, 6),
          start: (one(span, 7) as bigint | undefined) ?? 0n,
          end: (one(span, 8) as bigint | undefined) ?? 0n,
          attributes: protoAttributes(span, 9),
          links: all(span, 13).map((l) => {
            const link = fields(l as Buffer);
            return { traceId: hex(link, 1), spanId: hex(link, 2), traceState: text(link, 3) };
          }),
          status: { code: num(status, 3), message: text(status, 2) },
          flags: num(span, 16),
          resource,
          scope,
        });
      }
    }
  }
  return spans;
}

type JsonKeyValue = { key: string; value: { stringValue?: string } };
const jsonAttributes = (list: JsonKeyValue[] | undefined) => Object.fromEntries((list ?? []).map((kv) => [kv.key, kv.value.stringValue ?? '']));

function decodeJson(body: Buffer): ReceivedSpan[] {
  const doc = JSON.parse(body.toString('utf8')) as any;
  const spans: ReceivedSpan[] = [];
  for (const rs of doc.resourceSpans ?? []) {
    const resource = jsonAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        spans.push({
          traceId: s.traceId ?? '',
          spanId: s.spanId ?? '',
          traceState: s.traceState ?? '',
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          start: BigInt(s.startTimeUnixNano),
          end: BigInt(s.endTimeUnixNano),
          attributes: jsonAttributes(s.attributes),
          links: (s.links ?? []).map((l: { traceId: string; spanId: string; traceState?: string }) => ({
            traceId: l.traceId,
            spanId: l.spanId,
            traceState: l.traceState ?? '',
          })),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
          flags: s.flags ?? 0,
          resource,
          scope: { name: ss.scope?.name ?? '', version: ss.scope?.version ?? '' },
        });
      }
    }
  }
  return spans;
}

export interface Receiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  readonly received: Received[];
  /** Every span received so far, in order. */
  spans(): ReceivedSpan[];
  /** Resolves once at least `count` spans have arrived; rejects after `timeoutMs` (a hang guard). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Paths POSTed to, in order. */
  readonly paths: string[];
  /** TCP connections accepted so far. */
  readonly connections: () => number;
  close(): Promise<void>;
}

/** An answer to give instead of 200: a status, a status with headers, or `hang` (never answer). */
export type Answer = number | { status: number; headers: Record<string, string> } | 'hang';

/** Starts a receiver; `statuses` are answered to the first POSTs, in order, before 200s. */
export async function startReceiver(statuses: Answer[] = []): Promise<Receiver> {
  const received: Received[] = [];
  const paths: string[] = [];
  let connections = 0;
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(request.url ?? '');
      const answer = statuses.shift();
      if (answer === 'hang') return;
      if (typeof answer === 'number') return void response.writeHead(answer).end();
      if (answer !== undefined) return void response.writeHead(answer.status, answer.headers).end();
      const body = Buffer.concat(chunks);
      const contentType = request.headers['content-type'] ?? '';
      received.push({ contentType, headers: request.headers, spans: contentType === 'application/json' ? decodeJson(body) : decodeProtobuf(body) });
      response.writeHead(200, { 'content-type': contentType }).end(contentType === 'application/json' ? '{}' : '');
      for (const wake of waiters) wake();
    });
  });
  server.on('connection', () => void connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const spans = () => received.flatMap((r) => r.spans);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    paths,
    connections: () => connections,
    spans,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (spans().length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited for ${count} spans, got ${spans().length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
