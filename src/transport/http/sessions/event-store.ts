/**
 * The events of resumable SSE streams (2025-06-18 and 2025-11-25
 * basic/transports §Resumability and Redelivery), kept in a capped list per
 * stream behind {@link SharedLists}: this process's memory, or Redis so that
 * a client reconnecting to another replica gets what it missed.
 *
 * An event id is `<stream>_<seq>`: the stream (`g` for a session's GET
 * stream, `p` for a POST's SSE answer, then 32 random hex digits) and its
 * place in that stream, counted by the stream's one writer from 1. Ids are
 * so unique per stream and per session, and name their stream, as the spec
 * asks. A stream's list is stored under its session's id, so an id is only
 * ever looked up in the session the request names (and may use): another
 * session's stream is unknown there.
 *
 * What is stored per event is `<seq> <time> <kind> <data>`: the serialized
 * JSON-RPC message (empty for a priming event) and whether it ends the
 * stream (a response). Each stream keeps at most `maxEvents` events,
 * `maxBytes` bytes and `maxAgeMs` of age; a resume from before what is kept,
 * or across an event the store failed to take (a gap in the numbers), is
 * refused rather than replayed with a hole.
 */
import { randomUUID } from 'node:crypto';
import type { SharedLists } from '../../shared-state.js';

/** How much of each stream is kept. */
export interface StreamBounds {
  readonly maxEvents: number;
  readonly maxBytes: number;
  readonly maxAgeMs: number;
}

/** `p`: a priming event (no data); `m`: a message; `e`: the message that ends the stream. */
export type EventKind = 'p' | 'm' | 'e';

/** One event read back. */
export interface StoredEvent {
  readonly seq: number;
  readonly kind: EventKind;
  readonly data: string;
}

/** A stream's events after a given one, and whether the stream has ended. */
export interface Replay {
  readonly events: StoredEvent[];
  readonly ended: boolean;
  /** The last event's number, so a writer that takes the stream over goes on after it. */
  readonly last: number;
  /** Size and time of every event kept, for the cap of a writer that takes the stream over. */
  readonly held: readonly Held[];
}

interface Held {
  readonly bytes: number;
  readonly at: number;
}

/** One stream's log, as its writer or a reader sees it. */
export interface StreamLog {
  readonly streamId: string;
  /** The number of the last event written here; 0 before the first. */
  readonly last: number;
  /** Numbers the event and stores it in the background (writes keep their order); the number is its id's. */
  append(data: string, kind: EventKind): number;
  /** The events after `after`, or undefined when they are no longer all kept (or never were). Rejects when the store is out of reach. */
  after(after: number): Promise<Replay | undefined>;
}

export interface EventStore {
  /** The log of `streamId` in session `sessionId`; a writer goes on after `from` (the last event read when taking a stream over). */
  log(sessionId: string, streamId: string, from?: Replay): StreamLog;
}

const ID = /^([gp][0-9a-f]{32})_([1-9][0-9]{0,14})$/;

/** A new stream's id: `g` for a GET stream, `p` for a POST's answer. */
export function newStreamId(kind: 'g' | 'p'): string {
  return kind + randomUUID().replaceAll('-', '');
}

export function eventId(streamId: string, seq: number): string {
  return `${streamId}_${seq}`;
}

/** A `Last-Event-ID` as its stream and number; undefined when it is not one of this server's. */
export function parseEventId(text: string): { streamId: string; seq: number } | undefined {
  const match = ID.exec(text.trim());
  return match ? { streamId: match[1] as string, seq: Number(match[2]) } : undefined;
}

/** UTF-8 length of `text`, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate half counts 2 more (a pair is 4 bytes), the rest of U+0080..U+FFFF 1 or 2 more.
    if (code >= 0xd800 && code <= 0xdfff) bytes += 1;
    else if (code >= 0x800) bytes += 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/** An entry's fields, or undefined when the text is not one of this store's. */
function readEntry(text: string): (StoredEvent & { at: number }) | undefined {
  const first = text.indexOf(' ');
  const second = text.indexOf(' ', first + 1);
  const kind = text.slice(second + 1, second + 2);
  if (first < 1 || second < 0 || (kind !== 'p' && kind !== 'm' && kind !== 'e') || text[second + 2] !== ' ') return undefined;
  const seq = Number(text.slice(0, first));
  const at = Number(text.slice(first + 1, second));
  if (!Number.isSafeInteger(seq) || !Number.isFinite(at)) return undefined;
  return { seq, at, kind, data: text.slice(second + 3) };
}

/** Creates the event store over `lists` (memory or Redis). */
export function createEventStore(lists: SharedLists, bounds: StreamBounds, onError: (error: unknown) => void, now: () => number = Date.now): EventStore {
  const key = (sessionId: string, streamId: string): string => `events:${sessionId}:${streamId}`;

  async function after(listKey: string, from: number): Promise<Replay | undefined> {
    const oldest = now() - bounds.maxAgeMs;
    const kept: StoredEvent[] = [];
    const held: Held[] = [];
    for (const text of await lists.entries(listKey)) {
      const entry = readEntry(text);
      if (!entry || entry.at < oldest) continue;
      kept.push(entry);
      held.push({ bytes: utf8Length(text), at: entry.at });
    }
    const first = kept[0]?.seq;
    const last = kept.at(-1)?.seq;
    // Nothing kept: nothing is known of the stream here (expired, another session's, never written).
    if (first === undefined || last === undefined || from < first - 1 || from > last) return undefined;
    const events = kept.filter((event) => event.seq > from);
    // A number missing after `from`: an event the store failed to take.
    if (events.some((event, i) => event.seq !== from + i + 1)) return undefined;
    return { events, ended: kept.at(-1)?.kind === 'e', last, held };
  }

  return {
    log(sessionId, streamId, from) {
      const listKey = key(sessionId, streamId);
      let last = from?.last ?? 0;
      // What the list holds, as this writer knows it: sizes and times, to cap it by bytes and age.
      const held: Held[] = [...(from?.held ?? [])];
      let heldBytes = held.reduce((sum, one) => sum + one.bytes, 0);
      let writing: Promise<void> = Promise.resolve();
      return {
        streamId,
        get last() {
          return last;
        },
        append(data, kind) {
          const seq = ++last;
          const at = now();
          const text = `${seq} ${at} ${kind} ${data}`;
          const bytes = utf8Length(text);
          held.push({ bytes, at });
          heldBytes += bytes;
          while (held.length > 0 && (held.length > bounds.maxEvents || heldBytes > bounds.maxBytes || (held[0]?.at ?? at) < at - bounds.maxAgeMs)) {
            heldBytes -= held.shift()?.bytes ?? 0;
          }
          const keep = held.length;
          writing = writing.then(() => lists.append(listKey, text, keep, bounds.maxAgeMs)).catch(onError);
          return seq;
        },
        // After the writes already started, which a read must see.
        after: (seq) => writing.then(() => after(listKey, seq)),
      };
    },
  };
}
