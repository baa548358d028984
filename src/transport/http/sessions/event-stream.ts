/**
 * One resumable SSE stream of a 2025 session (basic/transports
 * §Resumability and Redelivery): a POST's SSE answer or the session's GET
 * stream. Each message is numbered and stored (event-store.ts) and written
 * with its id on the connection attached now, if any. A connection that goes
 * (the client's network, or the server closing it so the client polls)
 * leaves the stream running, detached; a GET with `Last-Event-ID` attaches a
 * new connection, which first gets what the stream sent after that id, each
 * event once and in order, then what comes next. Disconnection is not
 * cancellation (2025-11-25 §Sending Messages to the Server, 6).
 */
import { type JsonRpcOutgoing, serializeMessage } from '../../../jsonrpc/messages.js';
import type { SseStream } from '../sse.js';
import { eventId, type StreamLog } from './event-store.js';

/** How a stream opens its connections. */
export interface EventStreamOptions {
  /** Open each fresh connection with a priming event (an id, empty data) and `retry` (2025-11-25 §Sending Messages, 6). */
  readonly priming: boolean;
  /** The `retry` field's value, in ms, sent on connections of priming revisions. */
  readonly retryMs: number;
  /** Called once when the stream ends (its last message is stored). */
  readonly onEnd?: () => void;
}

export interface EventStream {
  readonly id: string;
  readonly ended: boolean;
  /** Whether a connection is attached. */
  readonly attached: boolean;
  /** Numbers, stores and (when attached) writes a message. */
  send(message: JsonRpcOutgoing): void;
  /** The last message (none for a request cancelled); the attached connection closes after it. */
  end(message: JsonRpcOutgoing | undefined): void;
  /** Attaches a new connection, primed on priming revisions; one attached before is closed. */
  open(sse: SseStream): void;
  /**
   * Attaches a connection that resumes after event `after`: false, with
   * nothing written, when the events since are no longer all kept. Rejects
   * when the store is out of reach.
   */
  resume(sse: SseStream, after: number): Promise<boolean>;
  /** Lets go of `sse` if it is the attached connection; `close` also ends it (the server closes the connection, not the stream). */
  detach(sse: SseStream, close?: boolean): void;
}

interface Written {
  readonly seq: number;
  readonly data: string;
}

/** A stream over its log. */
export function createEventStream(log: StreamLog, options: EventStreamOptions): EventStream {
  const id = log.streamId;
  let sink: SseStream | undefined;
  let ended = false;
  // Connections being resumed: what is sent while their replay is read, written after it.
  const waiting = new Map<SseStream, Written[]>();

  function attach(sse: SseStream): void {
    if (sink && sink !== sse) sink.close();
    sink = sse;
  }

  function write(data: string, last: boolean): void {
    const seq = log.append(data, last ? 'e' : 'm');
    for (const buffer of waiting.values()) buffer.push({ seq, data });
    if (!sink) return;
    if (data !== '') sink.sendEvent(data, eventId(id, seq));
    if (last) {
      sink.close();
      sink = undefined;
    }
  }

  return {
    id,
    get ended() {
      return ended;
    },
    get attached() {
      return sink?.open === true;
    },
    send(message) {
      if (!ended) write(serializeMessage(message), false);
    },
    end(message) {
      if (ended) return;
      ended = true;
      write(message ? serializeMessage(message) : '', true);
      options.onEnd?.();
    },
    open(sse) {
      if (options.priming) sse.sendEvent('', eventId(id, log.append('', 'p')), options.retryMs);
      attach(sse);
    },
    async resume(sse, after) {
      const buffer: Written[] = [];
      waiting.set(sse, buffer);
      let replay: Awaited<ReturnType<StreamLog['after']>>;
      try {
        replay = await log.after(after);
      } finally {
        waiting.delete(sse);
      }
      if (!replay) return false;
      // A resumed connection is not a new stream: no priming event, but the `retry` again.
      if (options.priming) sse.sendEvent('', undefined, options.retryMs);
      let sent = after;
      for (const event of [...replay.events, ...buffer]) {
        if (event.seq <= sent) continue;
        sent = event.seq;
        if (event.data !== '') sse.sendEvent(event.data, eventId(id, event.seq));
      }
      if (ended || replay.ended) sse.close();
      else attach(sse);
      return true;
    },
    detach(sse, close) {
      if (sink !== sse) return;
      sink = undefined;
      if (close) sse.close();
    },
  };
}
