/**
 * W3C Trace Context (Level 1, https://www.w3.org/TR/trace-context/): the
 * `traceparent` a client sends, checked (§3.2 traceparent Header), and the
 * ids of new spans. A value that does not parse is ignored, as §3.2.2.3
 * says, and the span starts a new trace. Ids come from the platform's
 * cryptographic random source, drawn in blocks so a span costs no call.
 */
import { randomFillSync } from 'node:crypto';

/** A span's place in a trace, as carried between processes. */
export interface SpanContext {
  /** 32 lowercase hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  readonly spanId: string;
  /** The `sampled` flag (§3.2.2.5.1). */
  readonly sampled: boolean;
  /** The `tracestate` header as received, when short enough to keep. */
  readonly traceState?: string;
}

/** Longest `tracestate` kept: 32 members of up to 16 bytes is 512 (§3.3.1.1 suggests propagating at least that). */
const TRACESTATE_KEPT = 512;

/** Version, trace id, parent id, flags; a later version may append fields after a `-` (§3.2.4). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The context a `traceparent` (and `tracestate`) names, or undefined when it
 * is absent or invalid: version `ff`, ids all zero, upper-case hex, or
 * version 00 with anything after the flags.
 */
export function parseTraceparent(traceparent: unknown, tracestate: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string' || traceparent.length > 256) return undefined;
  const match = TRACEPARENT.exec(traceparent);
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  const sampled = (Number.parseInt(flags, 16) & 1) === 1;
  if (typeof tracestate === 'string' && tracestate.length > 0 && tracestate.length <= TRACESTATE_KEPT)
    return { traceId, spanId, sampled, traceState: tracestate };
  return { traceId, spanId, sampled };
}

/** Random bytes drawn a block at a time; ids are cut from it as hex. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomHex(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}

/** A new random trace id (§3.2.2.3: all zero is invalid, so it is drawn again). */
export function newTraceId(): string {
  let id = randomHex(16);
  while (id === ZERO_TRACE) id = randomHex(16);
  return id;
}

/** A new random span id. */
export function newSpanId(): string {
  let id = randomHex(8);
  while (id === ZERO_SPAN) id = randomHex(8);
  return id;
}
