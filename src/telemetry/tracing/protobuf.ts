/**
 * The protobuf writer of the OTLP exporter (protobuf encoding §Message
 * Structure): varints, 32- and 64-bit little-endian fixed fields and
 * length-delimited fields, written into one growing buffer. Only what the
 * trace messages use (encode.ts).
 *
 * It runs on the exporter's timer for every span, so it writes bytes itself
 * where node's `Buffer#write` costs more in argument checks than the work:
 * ASCII text (attribute keys, method names, ids of the served) byte by
 * byte, hex ids as their bytes, nanoseconds as two 32-bit halves with no
 * BigInt. Text with any other character goes through `Buffer#write`.
 * Measured in PERFORMANCE.md (Tracing).
 */

// Wire types.
export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const I32 = 5;

/**
 * Where a message is written: one buffer, grown by doubling. A nested
 * message's length is written after its body, which is moved right when the
 * length takes more than the one byte reserved for it.
 */
export interface Out {
  buffer: Buffer;
  at: number;
}

export function room(out: Out, bytes: number): void {
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

export function writeVarint(out: Out, value: number): void {
  room(out, 10);
  const { buffer } = out;
  let rest = value;
  while (rest > 0x7f) {
    buffer[out.at++] = (rest % 0x80) | 0x80;
    rest = Math.floor(rest / 0x80);
  }
  buffer[out.at++] = rest;
}

export function tag(out: Out, field: number, wireType: number): void {
  writeVarint(out, field * 8 + wireType);
}

/** Text up to this many characters is written byte by byte when it is ASCII. */
const SHORT = 64;

/** The length of `text` when every character is ASCII (one byte each), or -1. */
function asciiLength(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return -1;
  return text.length;
}

/** A string field (omitted when empty, protobuf's default, unless `always`). */
export function stringField(out: Out, field: number, text: string, always = false): void {
  if (text === '' && !always) return;
  tag(out, field, LEN);
  // A loop writes a byte in about 5 ns and `Buffer#write` costs about 130 ns a call: short text by hand.
  const ascii = text.length <= SHORT ? asciiLength(text) : -1;
  const length = ascii === -1 ? Buffer.byteLength(text, 'utf8') : ascii;
  writeVarint(out, length);
  room(out, length);
  if (ascii === -1) {
    out.at += out.buffer.write(text, out.at, 'utf8');
    return;
  }
  const { buffer } = out;
  for (let i = 0; i < length; i++) buffer[out.at + i] = text.charCodeAt(i);
  out.at += length;
}

/** A hex digit's value; the ids are lowercase hex (context.ts makes and checks them). */
function nibble(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}

/** A bytes field holding the id written as hex in `hex`. */
export function idField(out: Out, field: number, hex: string): void {
  const length = hex.length >> 1;
  tag(out, field, LEN);
  writeVarint(out, length);
  room(out, length);
  const { buffer } = out;
  for (let i = 0; i < length; i++) buffer[out.at + i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  out.at += length;
}

export function varintField(out: Out, field: number, value: number): void {
  if (value === 0) return;
  tag(out, field, VARINT);
  writeVarint(out, value);
}

function uint32(buffer: Buffer, at: number, value: number): void {
  buffer[at] = value & 0xff;
  buffer[at + 1] = (value >>> 8) & 0xff;
  buffer[at + 2] = (value >>> 16) & 0xff;
  buffer[at + 3] = value >>> 24;
}

export function fixed32Field(out: Out, field: number, value: number): void {
  tag(out, field, I32);
  room(out, 4);
  uint32(out.buffer, out.at, value);
  out.at += 4;
}

const TWO_21 = 2 ** 21;
const TWO_32 = 2 ** 32;

/**
 * A fixed64 field of nanoseconds from `us` microseconds (an integer below
 * 2^53), as two exact 32-bit halves: `us` is split at bit 21 so that each
 * product with 1000 stays below 2^53.
 */
export function nanosField(out: Out, field: number, us: number): void {
  tag(out, field, I64);
  room(out, 8);
  const high = Math.floor(us / TWO_21) * 1000;
  const low = (us % TWO_21) * 1000;
  // us * 1000 = high * 2^21 + low; high's bits past 11 belong to the upper half.
  let lower = (high % 2048) * TWO_21 + low;
  let upper = Math.floor(high / 2048);
  if (lower >= TWO_32) {
    lower -= TWO_32;
    upper += 1;
  }
  uint32(out.buffer, out.at, lower);
  uint32(out.buffer, out.at + 4, upper);
  out.at += 8;
}

/** Opens a nested message at `field`; `close` writes its length once the body is written. */
export function open(out: Out, field: number): number {
  tag(out, field, LEN);
  room(out, 1);
  return out.at++;
}

export function close(out: Out, lengthAt: number): void {
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
