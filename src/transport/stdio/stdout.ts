/**
 * stdout as the stdio transport writes it: whole messages, one per line,
 * corked while a batch of work runs (until a tick), and whether it is too full.
 *
 * A request's own notifications (its progress, its log messages) leave
 * before its response, and never in the same write as it: the official
 * clients (SDK v1 and v2) handle every message of one read in a loop, each
 * notification a microtask later but the response at once, and the response
 * removes the request's progress handler; a progress notification read in
 * the same chunk as its response is dropped (0 of 400 arrived over 200 fast
 * calls with two steps each; test/reliability/progress-delivery.mjs). So the
 * response of a request whose notifications were written less than
 * {@link NOTIFICATION_GAP_MS} ago, or not yet, waits for their writes to
 * complete (the write callbacks) and that long, which lets the client read
 * them first. Nothing but time can tell: no message acknowledges them (a
 * `ping` would, but 2026-07-28 has none). A request that sent nothing pays
 * a `Map` size check.
 */
import type { Writable } from 'node:stream';
import { type JsonRpcOutgoing, type RequestId, serializeMessage, splitEncodedMessage } from '../../jsonrpc/messages.js';

/**
 * How long a response waits after its request's last notification was
 * written, so that the client has read that first. A client process woken
 * by the pipe reads within microseconds on an idle machine but can wait a
 * scheduler slice or more under load: over 200 calls of three steps each,
 * a turn of the event loop let about 16% of the notifications through, 1 ms
 * 98%, 5 ms all but one call's; 10 ms lost one call's in 2,600 on a loaded
 * machine (test/reliability/progress-delivery.mjs).
 * Only a response that comes this soon after its notifications waits.
 */
const NOTIFICATION_GAP_MS = 10;

/** stdout as the transport writes it. */
export interface StdioOutput {
  /** Writes a message the server sends unprompted; `relatedTo` names the request it belongs to. */
  send(message: JsonRpcOutgoing, relatedTo?: RequestId): void;
  /** Writes a response (or a notification of no request). */
  write(message: JsonRpcOutgoing): void;
  /** Sends what this turn wrote now. */
  flush(): void;
  /** Resolves once no response waits for its request's notifications. */
  settled(): Promise<void>;
  /** stdout holds more than allowed; `writableNeedDrain` too, so that a 'drain' is sure to come. */
  full(): boolean;
  /** Nothing more is written (stdout failed). */
  fail(): void;
}

/** The notifications of one request that are not all written yet, and its response once it waits for them. */
interface Notified {
  /** Notification writes whose callback has not come. */
  pending: number;
  response: JsonRpcOutgoing | undefined;
  /** The write callback of each notification (one per request, not per write). */
  readonly written: () => void;
}

interface State {
  readonly output: Writable;
  writable: boolean;
  corked: boolean;
  /** The lines written since the last write to `output`, which take one write there. */
  text: string;
  /** Callbacks of those lines, told when that write completes. */
  written: Array<() => void> | undefined;
  /** Bytes stdout may hold unread (`maxBufferedOutputBytes`). */
  readonly maxBuffered: number;
  readonly flush: () => void;
  /** Requests with notifications not yet written, or written less than the gap ago. */
  readonly notified: Map<RequestId | null, Notified>;
  idle: (() => void) | undefined;
}

/** Creates the output over `output`; `maxBufferedOutput` bytes unread make it full. */
export function stdioOutput(output: Writable, maxBufferedOutput: number): StdioOutput {
  const state: State = {
    output,
    writable: true,
    corked: false,
    text: '',
    written: undefined,
    maxBuffered: maxBufferedOutput,
    flush() {
      if (!state.corked) return;
      state.corked = false;
      writeText(state);
      output.uncork();
    },
    notified: new Map(),
    idle: undefined,
  };
  return {
    send(message, relatedTo) {
      if (relatedTo === undefined || 'id' in message) write(state, message);
      else notify(state, message, relatedTo);
    },
    write(message) {
      // The fast path: no request has notifications under way.
      if (state.notified.size === 0 || 'method' in message) write(state, message);
      else answer(state, message);
    },
    flush: state.flush,
    settled() {
      if (state.notified.size === 0 || !state.writable) return Promise.resolve();
      return new Promise((resolve) => {
        state.idle = resolve;
      });
    },
    full: () => state.writable && output.writableNeedDrain && output.writableLength > maxBufferedOutput,
    fail() {
      state.writable = false;
      state.text = '';
      state.written = undefined;
      // What waited is dropped, as every later write is.
      state.notified.clear();
      release(state);
    },
  };
}

// Messages written while one batch of work runs leave together: stdout is
// corked at the first and uncorked by a tick, which node runs once the
// promise jobs queued by then are done. The answers to the lines of one
// chunk of input, whose handlers answer at once, are written in one go, so a
// client that pipelines requests gets its answers in a few writes instead
// of one system call each. A tick rather than setImmediate: a lone answer
// does not wait for the event loop's check phase, which cost a sequential
// round trip 5-7 µs of CPU (PERFORMANCE.md, Promise turns). The lines themselves
// are joined into one string until then (a chunk at most, TEXT_KEPT): as
// many strings in one corked write cost node a conversion each; 500
// answers took 178 µs corked and 49 joined (PERFORMANCE.md, Writes).
function write(state: State, message: JsonRpcOutgoing, written?: () => void): void {
  if (!state.writable) return;
  const { output } = state;
  if (!state.corked) {
    state.corked = true;
    output.cork();
    process.nextTick(state.flush);
  }
  // JSON text escapes control characters, so a message never holds a raw newline.
  const parts = splitEncodedMessage(message);
  if (!parts) {
    state.text += `${serializeMessage(message)}\n`;
    if (written) (state.written ??= []).push(written);
    // Written on once a chunk's worth waits, or what stdout may hold could be passed: `full` must see it
    // (three bytes a character at most).
    if (state.text.length >= TEXT_KEPT || state.text.length * 3 + output.writableLength > state.maxBuffered) writeText(state);
    return;
  }
  // A shared result (a list page) goes out as the bytes encoded once for it, after what came before it.
  writeText(state);
  output.write(parts.head);
  output.write(parts.result);
  output.write(`${parts.tail}\n`, written);
}

/** Characters of joined lines kept before they are written on (still corked): a pipe's chunk. */
const TEXT_KEPT = 64 * 1024;

/** Writes the joined lines, their callbacks told when the write completes. */
function writeText(state: State): void {
  const { text, written } = state;
  if (text === '') return;
  state.text = '';
  state.written = undefined;
  if (written === undefined) state.output.write(text);
  else if (written.length === 1) state.output.write(text, written[0]);
  else
    state.output.write(text, () => {
      for (const done of written) done();
    });
}

/** A notification of request `id`: written, and counted until its write completes. */
function notify(state: State, message: JsonRpcOutgoing, id: RequestId): void {
  if (!state.writable) return;
  let entry = state.notified.get(id);
  if (!entry) {
    const created: Notified = { pending: 0, response: undefined, written: () => onWritten(state, id, created) };
    entry = created;
    state.notified.set(id, entry);
  }
  entry.pending++;
  write(state, message, entry.written);
}

function onWritten(state: State, id: RequestId, entry: Notified): void {
  if (--entry.pending > 0) return;
  setTimeout(() => {
    if (entry.pending > 0 || state.notified.get(id) !== entry) return;
    state.notified.delete(id);
    if (entry.response) write(state, entry.response);
    release(state);
  }, NOTIFICATION_GAP_MS);
}

/** A response: written now, unless its request's notifications are still under way. */
function answer(state: State, message: JsonRpcOutgoing): void {
  const entry = state.notified.get((message as { id: RequestId | null }).id);
  if (!entry || entry.response) {
    write(state, message);
    return;
  }
  entry.response = message;
  // The notifications go now rather than at the tick, with whatever else was written.
  state.flush();
}

/** Tells `settled` once nothing waits. */
function release(state: State): void {
  if (state.notified.size > 0 || !state.idle) return;
  const idle = state.idle;
  state.idle = undefined;
  idle();
}
