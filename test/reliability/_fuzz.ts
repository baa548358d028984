/**
 * fast-check arbitraries for hostile JSON-RPC input: well-formed requests
 * with every wrong param shape, malformed envelopes, and byte-level
 * mutations (truncation, invalid UTF-8, deep nesting, long strings, huge
 * numbers). Shared by the stdio and HTTP fuzzers.
 */
import { randomInt } from 'node:crypto';
import fc from 'fast-check';
import { modernMeta } from '../_wire.js';

/** A fuzz run's seed, and the command that runs it again. */
export interface FuzzSeed {
  seed: number;
  /** `FUZZ_SEED=… FUZZ_RUNS=… npx vitest run <file>`: what to put in a bug report. */
  replay: string;
}

/**
 * The seed of a fuzz file's run. `FUZZ_SEED` replays a run; unset, every run
 * draws a fresh seed, so that each CI run tries cases no run before it tried
 * rather than the same ones again, and prints the seed with the command that
 * replays it (on stderr, in the test output). Failure messages carry it too.
 * `runs` is the file's own count variable (FUZZ_RUNS, FUZZ_HTTP_RUNS) and its
 * value: the same seed with another count is another sequence of batches.
 */
export function fuzzSeed(file: string, runs: readonly [variable: string, value: number]): FuzzSeed {
  const given = process.env.FUZZ_SEED;
  const seed = given === undefined || given === '' ? randomInt(1, 2 ** 31) : Number(given);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${JSON.stringify(given)}`);
  const replay = `npm run build && FUZZ_SEED=${seed} ${runs[0]}=${runs[1]} npx vitest run ${file}`;
  console.error(`${file}: fuzz seed ${seed}${given === undefined || given === '' ? ' (fresh)' : ''}; replay: ${replay}`);
  return { seed, replay };
}

/** Every method the server knows, the removed ones, and a few it never served. */
export const METHODS = [
  'initialize',
  'ping',
  'server/discover',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'subscriptions/listen',
  'skills/list',
  'skills/get',
  'resources/directory/read',
  'notifications/initialized',
  'notifications/cancelled',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'sampling/createMessage',
] as const;

/** Prompt names of both fixtures (not `slow`: it waits 10 s by design). */
const NAMES = [
  'greeting',
  'localized',
  'pdf-tools',
  'summarize',
  'frontend:review',
  'component',
  'simple',
  'with_args',
  'many',
  'pair',
  'fails',
  'multiline',
  'content_kinds',
  'nope',
  '',
  '../greeting',
];
const URIS = [
  'skill://pdf-tools/SKILL.md',
  'skill://pdf-tools/assets/logo.png',
  'skill://greeting/SKILL.md',
  'skill://pdf-tools',
  'skill://pdf-tools/',
  'skill://pdf-tools/../greeting/SKILL.md',
  'skill://pdf-tools/%2e%2e/%2e%2e/etc/passwd',
  'skill:///etc/passwd',
  'skill://pdf-tools/..\\..\\x',
  'skill://pdf-tools/a\u0000b',
  'test://static-text',
  'test://static-binary',
  'test://template/123/data',
  'test://template/abc/data',
  'test://watched',
  'file:///etc/passwd',
  '',
];

const hugeNumber = fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 1.5, -0, 0.1 + 0.2, Number.MAX_SAFE_INTEGER);
const longString = fc.integer({ min: 1000, max: 200_000 }).map((n) => 'x'.repeat(n));
const weirdString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\u2028\u2029', '{{who}}', '$ARGUMENTS', '${input:x}', '__proto__', 'constructor', '%00', '\r\n'),
  longString,
);

/** Any JSON value, biased towards the awkward ones. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  hugeNumber,
  weirdString,
  fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
  fc.integer({ min: 2, max: 60 }).map((n) => JSON.parse(`${'['.repeat(n)}${']'.repeat(n)}`) as unknown),
);

function plausible(key: string): fc.Arbitrary<unknown> {
  switch (key) {
    case 'name':
      return fc.constantFrom(...NAMES);
    case 'uri':
      return fc.constantFrom(...URIS);
    case 'arguments':
      return fc.oneof(
        fc.dictionary(
          fc.constantFrom('who', 'language', 'variant', 'arg1', 'arg2', 'value', 'fruit', 'text', 'locale', 'arguments', '__proto__'),
          fc.oneof(fc.string(), weirdString),
        ),
        fc.constant({ who: 'x', text: 'y', arg1: 'a', arg2: 'b' }),
      );
    case 'cursor':
      return fc.oneof(fc.string(), fc.constantFrom(btoa('sp1:1'), btoa('sp1:99999999999'), btoa('sp1:-1'), btoa('sp1:1e3'), '!!!', 'c3AxOjE'));
    case 'ref':
      return fc.record(
        {
          type: fc.constantFrom('ref/prompt', 'ref/resource', 'ref/other'),
          name: fc.constantFrom(...NAMES),
          uri: fc.constantFrom('skill://{skill}/{+path}', 'test://template/{id}/data', ...URIS),
        },
        { requiredKeys: ['type'] },
      );
    case 'argument':
      return fc.record({
        name: fc.constantFrom('who', 'language', 'variant', 'arg1', 'value', 'skill', 'path', 'id', 'fruit', 'variety'),
        value: fc.oneof(fc.string(), weirdString),
      });
    case 'context':
      return fc.record({ arguments: fc.dictionary(fc.constantFrom('language', 'fruit', 'skill'), fc.string()) });
    case 'notifications':
      return fc.record(
        { promptsListChanged: fc.boolean(), resourcesListChanged: fc.boolean(), resourceSubscriptions: fc.array(fc.constantFrom(...URIS), { maxLength: 3 }) },
        { requiredKeys: [] },
      );
    case 'protocolVersion':
      return fc.constantFrom('2025-06-18', '2025-11-25', '2026-07-28', '2024-11-05', '1999-01-01', '');
    case 'capabilities':
      return fc.constant({});
    case 'clientInfo':
      return fc.constant({ name: 'fuzz', version: '0' });
    case 'requestId':
      return fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('a', 'b', 'probe-0'));
    case 'level':
      return fc.constantFrom('debug', 'info', 'emergency', 'nope');
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const PARAM_KEYS = [
  'name',
  'arguments',
  'cursor',
  'uri',
  'ref',
  'argument',
  'context',
  'notifications',
  'protocolVersion',
  'capabilities',
  'clientInfo',
  'requestId',
  'reason',
  'level',
];

/** Params with each relevant key absent, plausible or of a wrong type. */
const params: fc.Arbitrary<Record<string, unknown>> = fc.array(fc.tuple(fc.constantFrom(...PARAM_KEYS), fc.boolean()), { maxLength: 5 }).chain((picks) =>
  picks.length === 0
    ? fc.constant({})
    : fc.tuple(...picks.map(([key, right]) => (right ? plausible(key) : wrongValue).map((value) => [key, value] as const))).map((entries) => {
        const out: Record<string, unknown> = {};
        for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        return out;
      }),
);

/** A request id: usual ones, colliding ones (duplicates in one write), and ones MCP forbids. */
const id = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: -5, max: 1_000_000 }) },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(1, 2, 'dup') },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 1.5, 1e308, [], {}) },
);

export type Era = 'legacy' | 'modern';

/** The `_meta` envelope: usually right for the era, sometimes broken or for the other era. */
function envelope(era: Era): fc.Arbitrary<Record<string, unknown> | undefined> {
  const broken = fc.oneof(
    fc.constant({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' }),
    fc.constant({ 'io.modelcontextprotocol/protocolVersion': 7, 'io.modelcontextprotocol/clientCapabilities': {} }),
    fc.constant({ 'io.modelcontextprotocol/protocolVersion': '2030-01-01', 'io.modelcontextprotocol/clientCapabilities': {} }),
    fc.constant({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': [] }),
    fc.constant({
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': 'x',
    }),
  );
  return era === 'modern'
    ? fc.oneof({ weight: 8, arbitrary: fc.constant(modernMeta()) }, { weight: 2, arbitrary: broken })
    : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(modernMeta()) }, { weight: 1, arbitrary: broken });
}

/** A structurally plausible message: a request or notification of any method, any params. */
function message(era: Era): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record({
      method: fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: fc.string() }),
      id: fc.option(id, { nil: undefined, freq: 6 }),
      params: fc.option(params, { nil: undefined, freq: 8 }),
      meta: envelope(era),
    })
    .map(({ method, id: requestId, params: p, meta }) => {
      const out: Record<string, unknown> = { jsonrpc: '2.0', method };
      if (requestId !== undefined) out.id = requestId;
      // In a modern process an initialize without the envelope would open a legacy
      // session and change the era of everything after it; keep it modern-shaped.
      const withMeta = meta ?? (era === 'modern' && method === 'initialize' ? modernMeta() : undefined);
      if (p !== undefined || withMeta !== undefined) out.params = { ...p, ...(withMeta ? { _meta: withMeta } : {}) };
      return out;
    });
}

/** Envelopes JSON-RPC forbids. */
const malformed: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    [],
    [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: 1 },
    { jsonrpc: '2.0', id: 1, method: 7 },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: [1, 2] },
    { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x' },
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'probe-1' } },
  ),
);

/** Byte-level mutations of a serialised message. */
function mutate(text: string): fc.Arbitrary<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant(bytes) },
    { weight: 2, arbitrary: fc.nat({ max: Math.max(0, bytes.length - 1) }).map((n) => bytes.subarray(0, n)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.nat({ max: bytes.length }),
          fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0xef, 0xbb, 0xbf], [0x00], [0x0d]),
        )
        .map(([at, insert]) => Buffer.concat([bytes.subarray(0, at), Buffer.from(insert), bytes.subarray(at)])),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${text}${']'.repeat(n)}`)) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 65, max: 5000 })
        .map((n) => Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}`)),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 1000 }).map((n) => Buffer.from(text.replace(/^\{/, `{"pad":"${'\\u0041'.repeat(n)}",`))) },
  );
}

/** One fuzz case: the bytes of one line (no newline), and the value it was built from. */
export interface FuzzCase {
  bytes: Buffer;
  value: unknown;
}

/** Hostile single-line messages for a process or endpoint of the given era. */
export function fuzzCase(era: Era): fc.Arbitrary<FuzzCase> {
  return fc
    .oneof(
      { weight: 7, arbitrary: message(era).map((value) => ({ value, text: JSON.stringify(value) })) },
      { weight: 2, arbitrary: malformed.map((value) => ({ value, text: JSON.stringify(value) ?? 'null' })) },
      // Not JSON at all.
      { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1 }).map((text) => ({ value: undefined as unknown, text })) },
    )
    .chain(({ value, text }) => {
      // JSON.stringify escapes newlines, so one value is one line; mutations never add \n either.
      return mutate(text.replace(/\n/g, ' ')).map((bytes) => ({ bytes: Buffer.from(bytes.toString('latin1').replace(/\n/g, ' '), 'latin1'), value }));
    });
}
