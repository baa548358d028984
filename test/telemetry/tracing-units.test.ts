/**
 * The parts of tracing one at a time: the `OTEL_*` variables
 * (tracing/config.ts), W3C `traceparent` (tracing/context.ts), the sampler
 * (tracing/spans.ts), the batch processor (tracing/exporter.ts) and the
 * OTLP/HTTP sender's retries and outage warnings (tracing/otlp-http.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readTracingConfig, type TracingConfig } from '../../src/telemetry/tracing/config.js';
import { newSpanId, newTraceId, parseTraceparent } from '../../src/telemetry/tracing/context.js';
import { encodeJson, encodeProtobuf } from '../../src/telemetry/tracing/encode.js';
import { createBatchProcessor } from '../../src/telemetry/tracing/exporter.js';
import { createOtlpSender } from '../../src/telemetry/tracing/otlp-http.js';
import { type SpanRecord, sampledBy } from '../../src/telemetry/tracing/spans.js';
import { decodeProtobuf, startReceiver } from './_otlp-receiver.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

function read(env: Record<string, string>): { config: TracingConfig | undefined; warnings: string[] } {
  const warnings: string[] = [];
  const config = readTracingConfig(env, '1.0.0', (message) => warnings.push(message));
  return { config, warnings };
}

describe('OTEL_* configuration', () => {
  it('appends v1/traces to OTEL_EXPORTER_OTLP_ENDPOINT and takes the traces endpoint as is', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).config?.url).toBe('http://collector:4318/v1/traces');
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/base/' }).config?.url).toBe('https://otel.example/base/v1/traces');
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/x' };
    expect(read(both).config?.url).toBe('http://b:9999/x');
  });

  it('is off without an endpoint, when disabled, with exporter none, or with a URL it cannot use', () => {
    expect(read({}).config).toBeUndefined();
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_SDK_DISABLED: 'TRUE' }).config).toBeUndefined();
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_TRACES_EXPORTER: 'none' })).toEqual({ config: undefined, warnings: [] });
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_TRACES_EXPORTER: 'zipkin' }).warnings).toHaveLength(1);
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' }).warnings).toEqual(['OTEL_EXPORTER_OTLP_ENDPOINT is not a URL: traces are off']);
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://a' }).config).toBeUndefined();
  });

  it('reads the defaults of the specification', () => {
    const { config, warnings } = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a' });
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      protocol: 'http/protobuf',
      headers: {},
      timeoutMs: 10_000,
      sampler: { ratio: 1, parentBased: true },
      scheduleDelayMs: 5000,
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      exportTimeoutMs: 30_000,
      resource: { 'service.name': 'skillport', 'service.version': '1.0.0', 'telemetry.sdk.language': 'nodejs' },
    });
  });

  it('reads headers percent-decoded, the traces ones over the general ones', () => {
    const { config } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a',
      OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20abc, x=1,broken,=nokey,bad=%E0%A4%A',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x=2',
    });
    expect(config?.headers).toEqual({ authorization: 'Bearer abc', x: '2' });
  });

  it('takes json, warns of grpc and unknown protocols, and keeps protobuf for them', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).config?.protocol).toBe('http/json');
    const grpc = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' });
    expect(grpc.config?.protocol).toBe('http/protobuf');
    expect(grpc.warnings[0]).toContain('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="grpc"');
  });

  it('reads every sampler, and the ratio between 0 and 1', () => {
    const sampler = (name: string, arg?: string) =>
      read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a', OTEL_TRACES_SAMPLER: name, ...(arg !== undefined ? { OTEL_TRACES_SAMPLER_ARG: arg } : {}) });
    expect(sampler('always_on').config?.sampler).toEqual({ ratio: 1, parentBased: false });
    expect(sampler('always_off').config?.sampler).toEqual({ ratio: 0, parentBased: false });
    expect(sampler('traceidratio', '0.25').config?.sampler).toEqual({ ratio: 0.25, parentBased: false });
    expect(sampler('parentbased_always_off').config?.sampler).toEqual({ ratio: 0, parentBased: true });
    expect(sampler('parentbased_traceidratio', '0.5').config?.sampler).toEqual({ ratio: 0.5, parentBased: true });
    expect(sampler('traceidratio', '2')).toMatchObject({ config: { sampler: { ratio: 1 } }, warnings: [expect.stringContaining('OTEL_TRACES_SAMPLER_ARG')] });
    expect(sampler('jaeger_remote')).toMatchObject({ config: { sampler: { ratio: 1, parentBased: true } }, warnings: [expect.any(String)] });
  });

  it('reads the batch settings, keeping the batch no larger than the queue', () => {
    const { config, warnings } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_BSP_MAX_QUEUE_SIZE: '10',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '50',
      OTEL_BSP_EXPORT_TIMEOUT: 'soon',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2500',
    });
    expect(config).toMatchObject({ scheduleDelayMs: 100, maxQueueSize: 10, maxExportBatchSize: 10, exportTimeoutMs: 30_000, timeoutMs: 2500 });
    expect(warnings).toEqual([expect.stringContaining('OTEL_BSP_EXPORT_TIMEOUT')]);
  });
});

describe('W3C traceparent', () => {
  const id = '4bf92f3577b34da6a3ce929d0e0e4736';
  const span = '00f067aa0ba902b7';

  it('reads a valid one with its sampled flag and tracestate', () => {
    expect(parseTraceparent(`00-${id}-${span}-01`, 'a=1')).toEqual({ traceId: id, spanId: span, sampled: true, traceState: 'a=1' });
    expect(parseTraceparent(`00-${id}-${span}-00`, undefined)).toEqual({ traceId: id, spanId: span, sampled: false });
    // A later version may add fields (§3.2.4).
    expect(parseTraceparent(`01-${id}-${span}-03-more`, undefined)).toMatchObject({ traceId: id, sampled: true });
  });

  it('ignores invalid ones', () => {
    for (const bad of [
      `00-${id.toUpperCase()}-${span}-01`,
      `00-${'0'.repeat(32)}-${span}-01`,
      `00-${id}-${'0'.repeat(16)}-01`,
      `ff-${id}-${span}-01`,
      `00-${id}-${span}-01-extra`,
      `00-${id}-${span}`,
      '',
      42,
    ]) {
      expect(parseTraceparent(bad, undefined)).toBeUndefined();
    }
  });

  it('drops a tracestate too long to keep', () => {
    expect(parseTraceparent(`00-${id}-${span}-01`, `a=${'x'.repeat(600)}`)).toEqual({ traceId: id, spanId: span, sampled: true });
  });

  it('makes distinct random ids of the right length', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newTraceId()));
    expect(ids.size).toBe(1000);
    for (const one of ids) expect(one).toMatch(/^[0-9a-f]{32}$/);
    expect(newSpanId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it('samples by ratio on the trace id alone', () => {
    const half = { ratio: 0.5, parentBased: false };
    expect(sampledBy(half, undefined, `${'f'.repeat(16)}0000000000000000`)).toBe(true);
    expect(sampledBy(half, undefined, `${'0'.repeat(16)}ffffffffffffffff`)).toBe(false);
    const kept = Array.from({ length: 2000 }, () => sampledBy(half, undefined, newTraceId())).filter(Boolean).length;
    expect(kept).toBeGreaterThan(800);
    expect(kept).toBeLessThan(1200);
  });
});

function span(n: number): SpanRecord {
  return { traceId: '1'.repeat(32), spanId: n.toString(16).padStart(16, '0'), name: `s${n}`, startUs: 1, endUs: 2, attributes: {}, status: 0 };
}

describe('the batch processor', () => {
  const options = { scheduleDelayMs: 60_000, maxQueueSize: 3, maxExportBatchSize: 2, exportTimeoutMs: 5000 };

  it('sends a batch as soon as it is full, and the rest on flush', async () => {
    const batches: string[][] = [];
    const processor = createBatchProcessor(
      options,
      async (spans) => void batches.push(spans.map((s) => s.name)),
      () => {},
    );
    processor.add(span(1));
    expect(batches).toEqual([]);
    processor.add(span(2));
    processor.add(span(3));
    await processor.flush();
    expect(batches).toEqual([['s1', 's2'], ['s3']]);
  });

  it('drops spans that find the queue full, says so once, and takes none after shutdown', async () => {
    let release = () => {};
    const batches: string[][] = [];
    const drops: number[] = [];
    const processor = createBatchProcessor(
      options,
      (spans) => {
        batches.push(spans.map((s) => s.name));
        return new Promise<void>((resolve) => (release = resolve));
      },
      () => drops.push(1),
    );
    // The first two go out in an export that hangs; three more fill the queue; two are dropped.
    for (let n = 1; n <= 7; n++) processor.add(span(n));
    expect(processor.dropped).toBe(2);
    expect(drops).toEqual([1]);
    const done = processor.shutdown();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await done;
    expect(batches).toEqual([['s1', 's2'], ['s3', 's4'], ['s5']]);
    processor.add(span(8));
    await processor.flush();
    expect(batches).toHaveLength(3);
  });

  it('exports a partial batch when the schedule delay passes', async () => {
    const batches: string[][] = [];
    let sent = () => {};
    const arrived = new Promise<void>((resolve) => (sent = resolve));
    const processor = createBatchProcessor(
      { ...options, scheduleDelayMs: 1 },
      async (spans) => {
        batches.push(spans.map((s) => s.name));
        sent();
      },
      () => {},
    );
    processor.add(span(1));
    await arrived;
    expect(batches).toEqual([['s1']]);
  });
});

describe('the OTLP/HTTP sender', () => {
  function config(url: string): TracingConfig {
    return readTracingConfig(
      { OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer secret-key' },
      '1.0.0',
      () => {},
    ) as TracingConfig;
  }

  function logger() {
    const lines: string[] = [];
    const keep = (level: string) => (message: string) => void lines.push(`${level} ${message}`);
    return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
  }

  it('retries a 503 and a 429, then delivers without a warning', async () => {
    const receiver = await startReceiver([503, 429]);
    closers.push(() => receiver.close());
    const log = logger();
    const send = createOtlpSender(config(receiver.url), { name: 'skillport', version: '1' }, log);
    await send([span(1)], AbortSignal.timeout(30_000));
    expect(receiver.paths).toHaveLength(3);
    expect(receiver.spans().map((s) => s.name)).toEqual(['s1']);
    expect(log.lines).toEqual([]);
  });

  it('gives up at once on a 400, warns once per outage without the headers, and says when it works again', async () => {
    const receiver = await startReceiver([400, 401]);
    closers.push(() => receiver.close());
    const log = logger();
    const send = createOtlpSender(config(receiver.url), { name: 'skillport', version: '1' }, log);
    await send([span(1)], AbortSignal.timeout(30_000));
    await send([span(2)], AbortSignal.timeout(30_000));
    expect(receiver.paths).toHaveLength(2);
    expect(log.lines).toEqual([expect.stringMatching(/^warn traces: could not export 1 spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: HTTP 400/)]);
    await send([span(3)], AbortSignal.timeout(30_000));
    expect(log.lines).toHaveLength(2);
    expect(log.lines[1]).toMatch(/^info traces: exporting to .* works again$/);
    expect(log.lines.join('\n')).not.toContain('secret-key');
  });

  it('honours a short Retry-After, gives up on a long one, and sends every batch on one connection', async () => {
    const receiver = await startReceiver([
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 429, headers: { 'retry-after': '120' } },
    ]);
    closers.push(() => receiver.close());
    const log = logger();
    const send = createOtlpSender(config(receiver.url), { name: 'skillport', version: '1' }, log);
    await send([span(1)], AbortSignal.timeout(30_000));
    // The 503 says "now"; the 429's two minutes end the retries.
    expect(receiver.paths).toHaveLength(2);
    expect(log.lines).toEqual([expect.stringMatching(/could not export 1 spans to .*: HTTP 429, retry after 120 s;/)]);
    await send([span(2)], AbortSignal.timeout(30_000));
    await send([span(3)], AbortSignal.timeout(30_000));
    expect(receiver.spans().map((s) => s.name)).toEqual(['s2', 's3']);
    expect(receiver.connections()).toBe(1);
  });

  it('gives up on a collector that takes the batch and never answers when the export times out', async () => {
    const receiver = await startReceiver(['hang']);
    closers.push(() => receiver.close());
    const log = logger();
    const send = createOtlpSender(config(receiver.url), { name: 'skillport', version: '1' }, log);
    await send([span(1)], AbortSignal.timeout(200));
    expect(log.lines).toEqual([expect.stringMatching(/could not export 1 spans to .*: timed out; gave up at the export timeout/)]);
  });

  it('stops retrying a collector that is down when the export times out', async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    const log = logger();
    const send = createOtlpSender(config(url), { name: 'skillport', version: '1' }, log);
    await send([span(1)], AbortSignal.timeout(200));
    expect(log.lines).toEqual([expect.stringMatching(/^warn traces: could not export 1 spans to .*: network error/)]);
  });
});

describe('the OTLP encoders', () => {
  it('write protobuf that reads back whole, lengths of one, two and three bytes alike', () => {
    const long = 'x'.repeat(20_000);
    const spans: SpanRecord[] = [
      { ...span(1), attributes: { short: 'a', medium: 'm'.repeat(200), long, empty: '' }, status: 2, statusMessage: 'bad' },
      { ...span(2), parentSpanId: 'ab'.repeat(8), traceState: 'k=v', link: { traceId: 'cd'.repeat(16), spanId: 'ef'.repeat(8), sampled: true } },
    ];
    const decoded = decodeProtobuf(Buffer.from(encodeProtobuf({ 'service.name': 's' }, { name: 'skillport', version: '1' }, spans)));
    expect(decoded).toHaveLength(2);
    expect(decoded[0]).toMatchObject({ name: 's1', kind: 2, start: 1000n, end: 2000n, status: { code: 2, message: 'bad' }, parentSpanId: '', flags: 0x101 });
    expect(decoded[0]?.attributes).toEqual({ short: 'a', medium: 'm'.repeat(200), long, empty: '' });
    expect(decoded[1]).toMatchObject({
      parentSpanId: 'ab'.repeat(8),
      traceState: 'k=v',
      flags: 0x301,
      links: [{ traceId: 'cd'.repeat(16), spanId: 'ef'.repeat(8), traceState: '' }],
    });
    expect(decoded[1]?.resource).toEqual({ 'service.name': 's' });
    expect(decoded[1]?.scope).toEqual({ name: 'skillport', version: '1' });
  });

  it('write protobuf ids, times and text byte for byte: every hex digit, times near 2^53 µs, non-ASCII text', () => {
    // protobuf.ts writes these by hand (no Buffer#write, no BigInt): checked against node's own.
    const times = [0, 1, 999_999, 2 ** 21 - 1, 2 ** 21, 2 ** 32, 1_764_900_000_123_456, 2 ** 53 - 1, 4_294_967_296_000];
    const texts = ['plain', 'é', 'naïve 名前 🙂', 'x'.repeat(63), `${'y'.repeat(64)}é`, 'z'.repeat(5000)];
    const spans: SpanRecord[] = times.map((startUs, i) => ({
      ...span(i + 1),
      traceId: '0123456789abcdef'.repeat(2),
      spanId: 'fedcba9876543210',
      startUs,
      endUs: startUs,
      name: texts[i % texts.length] as string,
      attributes: Object.fromEntries(texts.map((text, j) => [`k${j}.${text.slice(0, 8)}`, text])),
    }));
    const decoded = decodeProtobuf(Buffer.from(encodeProtobuf({ 'service.name': 'ş' }, { name: 'skillport', version: '1' }, spans)));
    expect(decoded).toHaveLength(times.length);
    decoded.forEach((got, i) => {
      const sent = spans[i] as SpanRecord;
      expect(got).toMatchObject({
        traceId: sent.traceId,
        spanId: sent.spanId,
        name: sent.name,
        start: BigInt(sent.startUs) * 1000n,
        end: BigInt(sent.endUs) * 1000n,
      });
      expect(got.attributes).toEqual(sent.attributes);
    });
    expect(decoded[0]?.resource).toEqual({ 'service.name': 'ş' });
  });

  it('write attributes met before byte for byte, whatever the buffers around them did since', () => {
    const scope = { name: 'skillport', version: '1' };
    // A span's attributes: two that repeat, one whose values vary past what is remembered.
    const attributes = (n: number) => ({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet', 'jsonrpc.request.id': String(n) });
    const one = (n: number) => ({ ...span(n), attributes: attributes(n) });
    expect(decodeProtobuf(Buffer.from(encodeProtobuf({}, scope, [one(1)])))[0]?.attributes).toEqual(attributes(1));
    // Small buffers come from node's shared pool: bytes remembered there must not change under them.
    for (let i = 0; i < 64; i++) Buffer.allocUnsafe(512).fill(0xff);
    const many = Array.from({ length: 80 }, (_, n) => one(n));
    const decoded = decodeProtobuf(Buffer.from(encodeProtobuf({}, scope, many)));
    expect(decoded.map((got) => got.attributes)).toEqual(many.map((sent) => sent.attributes));
  });

  it('write JSON with hex ids and nanoseconds as strings', () => {
    const doc = JSON.parse(encodeJson({ 'service.name': 's' }, { name: 'skillport', version: '1' }, [span(1)]));
    expect(doc.resourceSpans[0].scopeSpans[0].spans[0]).toMatchObject({
      traceId: '1'.repeat(32),
      spanId: '0000000000000001',
      startTimeUnixNano: '1000',
      kind: 2,
    });
  });
});
