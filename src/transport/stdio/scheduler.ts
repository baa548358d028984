/**
 * The stdio scheduler: what was read waits its turn here, by the lane the
 * resolver gave it (protocol/revision.ts `Lane`), and starts when the output
 * and the caps allow. It knows no method name and no pipe: serve-stdio.ts
 * gives it parsed messages and the means to write, to ask whether stdout is
 * full and to stop or resume reading.
 *
 * - `control` (a cancellation, a response to a question of the server's)
 *   never waits: a cancellation reaches the request it names now, or keeps it
 *   from ever starting if it still waits (a cancelled request gets no
 *   response, 2025-06-18 basic/utilities/cancellation); a response may be what
 *   every running request waits for, and would otherwise wait for ever.
 * - `work` waits in line while stdout is full or `maxConcurrent` run.
 * - `stream` (a listen request) waits in the same line, but holds next to
 *   nothing while it stays open: it takes no place among `maxConcurrent` and
 *   has a cap of its own (`maxStreams`), over which it is refused with -32603
 *   as its revision encodes errors (a limit of this server, as HTTP's 429).
 *
 * Each message is resolved once, when read, and the reading waits with it;
 * it is read again at its turn only if an initialize answered meanwhile
 * opened the session it belongs to.
 */
import { ErrorCode, ProtocolError } from '../../jsonrpc/errors.js';
import type { JsonRpcOutgoing, JsonRpcResponse, RequestId } from '../../jsonrpc/messages.js';
import type { Resolved } from '../../protocol/index.js';
import type { Connection, Logger } from '../../server/index.js';

/** What the scheduler drives besides the connection: the output and the input. */
export interface SchedulerIo {
  write(message: JsonRpcOutgoing): void;
  /** Whether stdout holds more than allowed, such that a drain is sure to be signalled. */
  outputFull(): boolean;
  /** Calls `drained` once stdout has drained. */
  onDrain(drained: () => void): void;
  /** Stops (false) or resumes (true) reading the input. */
  reading(on: boolean): void;
  /** Whether the transport still takes on new input (reading may resume). */
  serving(): boolean;
}

export interface SchedulerLimits {
  /** Most `work` messages handled at once. */
  maxConcurrent: number;
  /** Most open `stream` requests. */
  maxStreams: number;
  /** Input is not read while more than this many bytes of lines wait. */
  maxWaitingBytes: number;
}

export interface Scheduler {
  /** A parsed message of `bytes` bytes: handled now (control) or put in line. */
  message(value: unknown, bytes: number): void;
  /** The answer to a line that could not be read (-32700, or -32600 with id null): it waits its turn too, or a flood of bad lines would not. */
  reply(answer: JsonRpcOutgoing, bytes: number): void;
  /** Starts what may start, and stops or resumes reading (after stdout drained, failed or the transport changed state). */
  pump(): void;
  /** Resolves once nothing waits and nothing runs. */
  settled(): Promise<void>;
}

/** The part of a connection the scheduler uses. */
export type ScheduledConnection = Pick<Connection, 'resolve' | 'handle' | 'refuse' | 'session'>;

/** A message waiting its turn, with the resolver's reading and the session it was read in. */
type Item = { message: unknown; resolved: Resolved; session: unknown; bytes: number } | { reply: JsonRpcOutgoing; bytes: number };

interface State {
  readonly connection: ScheduledConnection;
  readonly io: SchedulerIo;
  readonly limits: SchedulerLimits;
  waiting: Item[];
  next: number;
  /** Bytes of the lines waiting (their length in UTF-16 units, near enough for JSON text). */
  waitingBytes: number;
  running: number;
  streams: number;
  reading: boolean;
  awaitingDrain: boolean;
  idle: (() => void) | undefined;
  // Made once per scheduler, so that a message adds no closure of its own.
  readonly written: (response: JsonRpcResponse | undefined) => void;
  readonly failed: (error: unknown) => void;
  readonly workDone: () => void;
  readonly streamDone: () => void;
  readonly drained: () => void;
}

/** Creates the scheduler of one stdio connection. */
export function createScheduler(connection: ScheduledConnection, io: SchedulerIo, limits: SchedulerLimits, logger: Logger): Scheduler {
  const state: State = {
    connection,
    io,
    limits,
    waiting: [],
    next: 0,
    waitingBytes: 0,
    running: 0,
    streams: 0,
    reading: true,
    awaitingDrain: false,
    idle: undefined,
    written: (response) => {
      if (response) io.write(response);
    },
    failed: (error) => logger.error('Unexpected failure while handling a message', error),
    workDone: () => {
      state.running--;
      pump(state);
    },
    streamDone: () => {
      state.streams--;
      pump(state);
    },
    drained: () => {
      state.awaitingDrain = false;
      pump(state);
    },
  };
  return {
    message: (value, bytes) => receive(state, value, bytes),
    reply: (answer, bytes) => enqueue(state, { reply: answer, bytes }),
    pump: () => pump(state),
    settled() {
      const finished = new Promise<void>((resolve) => {
        state.idle = resolve;
      });
      pump(state);
      return finished;
    },
  };
}

function receive(s: State, value: unknown, bytes: number): void {
  const resolved = s.connection.resolve(value);
  if (resolved.lane !== 'control') {
    enqueue(s, { message: value, resolved, session: s.connection.session, bytes });
    return;
  }
  if (resolved.kind === 'notification' && resolved.cancels !== undefined) withdraw(s, resolved.cancels);
  s.connection.handle(resolved).then(s.written).catch(s.failed);
}

/** A waiting message the client cancelled never starts; its line no longer counts. */
function withdraw(s: State, id: RequestId): void {
  for (let at = s.next; at < s.waiting.length; at++) {
    const item = s.waiting[at] as Item;
    if ('reply' in item || idOf(item.resolved) !== id) continue;
    s.waiting.splice(at, 1);
    s.waitingBytes -= item.bytes;
    return;
  }
}

/** The id of a request, or of the answer the resolver wrote to one; undefined for the rest. */
function idOf(resolved: Resolved): RequestId | null | undefined {
  return resolved.kind === 'request' ? resolved.request.id : resolved.kind === 'answer' ? resolved.response.id : undefined;
}

function enqueue(s: State, item: Item): void {
  s.waiting.push(item);
  s.waitingBytes += item.bytes;
  pump(s);
}

/** Starts what may start, and reads input unless stdout is full or too much waits. */
function pump(s: State): void {
  const { io, connection } = s;
  while (s.next < s.waiting.length && !io.outputFull()) {
    const item = s.waiting[s.next] as Item;
    if (!('reply' in item)) {
      // An initialize answered since it was read may have opened the session it belongs to.
      if (item.session !== connection.session) {
        item.resolved = connection.resolve(item.message);
        item.session = connection.session;
      }
      if (item.resolved.lane !== 'stream' && s.running >= s.limits.maxConcurrent) break;
    }
    s.next++;
    start(s, item);
  }
  compact(s);
  if (io.outputFull() && !s.awaitingDrain) {
    s.awaitingDrain = true;
    io.onDrain(s.drained);
  }
  const blocked = io.outputFull() || s.waitingBytes > s.limits.maxWaitingBytes;
  if (blocked && s.reading) {
    s.reading = false;
    io.reading(false);
  } else if (!blocked && !s.reading && io.serving()) {
    s.reading = true;
    io.reading(true);
  }
  if (s.running === 0 && s.streams === 0 && s.next === s.waiting.length) s.idle?.();
}

/** Drops what has started: at once when the line is empty, now and then under a steady flow. */
function compact(s: State): void {
  if (s.next === s.waiting.length && s.next > 0) {
    s.waiting = [];
    s.next = 0;
  } else if (s.next > 1024 && s.next * 2 > s.waiting.length) {
    s.waiting = s.waiting.slice(s.next);
    s.next = 0;
  }
}

function start(s: State, item: Item): void {
  s.waitingBytes -= item.bytes;
  // A line that could not be read was answered when it was (-32700, or -32600 with id null).
  if ('reply' in item) {
    s.io.write(item.reply);
    return;
  }
  const { resolved } = item;
  const stream = resolved.lane === 'stream';
  if (stream && s.streams >= s.limits.maxStreams) {
    // A limit of this server, as HTTP answers 429: refused as the request's revision encodes errors.
    const message = `Too many open listen requests (${s.limits.maxStreams}); cancel one first`;
    const refusal = s.connection.refuse(resolved, new ProtocolError(ErrorCode.InternalError, message));
    if (refusal) s.io.write(refusal);
    return;
  }
  if (stream) s.streams++;
  else s.running++;
  s.connection
    .handle(resolved)
    .then(s.written)
    .catch(s.failed)
    .finally(stream ? s.streamDone : s.workDone);
}
