/**
 * Resumable streams of 2025 sessions over Streamable HTTP (2025-06-18 and
 * 2025-11-25 basic/transports §Resumability and Redelivery): which streams
 * resume (the session's revision says, `Revision.resumption`), a POST's SSE
 * answer and a fresh GET stream as event streams (event-stream.ts), and a
 * GET with `Last-Event-ID`, which resumes the one stream the id names.
 *
 * Resumption is always by GET (2025-11-25). An id of the session's GET
 * stream makes the new connection that stream: the events after the id,
 * then what comes next; on another replica (its session restored from the
 * shared record) this replica becomes the stream's writer and tells the
 * others, so the one that held it stops. An id of a POST's answer gets the
 * rest of that request's messages, its response included (a response on a
 * GET stream only when resuming, §Listening for Messages from the Server),
 * live when the request runs here, else what is stored, and the connection
 * closes (the client polls again while the response has not come).
 *
 * The spec names no answer for an id the server cannot resume from. Here it
 * is 400 with a JSON-RPC error (as for other requests the server cannot
 * accept, §Sending Messages to the Server, 4), never a stream with a silent
 * gap; not 404, which tells the client its session is gone
 * (§Session Management). The session id is checked first, as for any GET.
 */
import type { Logger } from '../../../server/index.js';
import type { SharedLists, SharedState } from '../../shared-state.js';
import { RETRY_AFTER, Rejections, reject } from '../errors.js';
import type { ExchangeOptions } from '../exchange.js';
import type { HttpOptions } from '../options.js';
import type { HttpReply } from '../request.js';
import { createSseStream, type SseStream, sseHeaders } from '../sse.js';
import { createEventStore, type EventStore, eventId, newStreamId, parseEventId, type StreamBounds, type StreamLog } from './event-store.js';
import { createEventStream, type EventStream } from './event-stream.js';
import { messageOf } from './shared.js';
import type { Session, SessionStore } from './store.js';

const TAKEN_TOPIC = 'stream-taken';

/** The resumption settings of a handler (`HttpOptions.resumption`, defaults filled in). */
export interface ResumptionSettings extends StreamBounds {
  readonly retryMs: number;
  readonly pollAfterMs: number | undefined;
}

export interface Resumption {
  /** The exchange options that make a request's SSE answer resumable, for a session whose revision resumes. */
  forPost(session: Session): Pick<ExchangeOptions, 'resumable' | 'pollAfterMs'>;
  /** Whether the session's GET streams resume (and so `Last-Event-ID` is read). */
  resumes(session: Session): boolean;
  /** A fresh GET stream of a session whose revision resumes, on `sse`. */
  openGet(session: Session, sse: SseStream): void;
  /** A GET with `Last-Event-ID`; `release` frees its stream place. */
  resume(session: Session, lastEventId: string, keepAliveMs: number, release: () => void): Promise<HttpReply>;
  close(): void;
}

/** `HttpOptions.resumption` with its defaults, checked; undefined when turned off. */
export function resumptionSettings(options: HttpOptions['resumption']): ResumptionSettings | undefined {
  if (options === false) return undefined;
  const settings = {
    maxEvents: options?.maxEvents ?? 1000,
    maxBytes: options?.maxBytes ?? 1024 * 1024,
    maxAgeMs: options?.maxAgeMs ?? 5 * 60_000,
    retryMs: options?.retryMs ?? 1000,
    pollAfterMs: options?.pollAfterMs,
  };
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1)) throw new TypeError(`resumption.${name} must be a positive integer`);
  }
  return settings;
}

/** Creates resumption over the shared state's lists (or `lists` in memory). */
export function createResumption(
  settings: ResumptionSettings,
  lists: SharedLists,
  shared: SharedState | undefined,
  sessions: SessionStore,
  logger: Logger,
): Resumption {
  const store = createEventStore(lists, settings, (error) => logger.debug(`Cannot store a stream event: ${messageOf(error)}`));
  const priming = (session: Session): boolean => session.connection.session?.revision.resumption === 'polling';
  const streamOf = (session: Session, log: StreamLog, onEnd?: () => void): EventStream =>
    createEventStream(log, { priming: priming(session), retryMs: settings.retryMs, ...(onEnd ? { onEnd } : {}) });
  // Another replica resumed a GET stream this one held: it is that replica's now.
  const stopTaken = shared?.subscribe(TAKEN_TOPIC, (message) => {
    const [from, sessionId, streamId] = message.split(' ', 3);
    const session = from === shared.replica || sessionId === undefined ? undefined : sessions.get(sessionId);
    if (!session || session.events?.id !== streamId) return;
    session.events = undefined;
    session.stream?.close();
  });
  const resumes = (session: Session): boolean => session.connection.session?.revision.resumption !== undefined;
  return {
    resumes,
    forPost(session) {
      if (!resumes(session)) return {};
      const resumable = () => {
        const streamId = newStreamId('p');
        const stream = streamOf(session, store.log(session.id, streamId), () => session.streams.delete(streamId));
        session.streams.set(streamId, stream);
        return stream;
      };
      return priming(session) && settings.pollAfterMs !== undefined ? { resumable, pollAfterMs: settings.pollAfterMs } : { resumable };
    },
    openGet(session, sse) {
      const stream = streamOf(session, store.log(session.id, newStreamId('g')));
      session.events = stream;
      session.stream = sse;
      stream.open(sse);
      // What was sent while no GET stream was open (without shared state), now on this one.
      for (const message of session.backlog.splice(0)) stream.send(message);
    },
    resume: (session, lastEventId, keepAliveMs, release) =>
      resume({ store, settings, shared, logger, streamOf, priming }, session, lastEventId, keepAliveMs, release),
    close: () => stopTaken?.(),
  };
}

interface Context {
  readonly store: EventStore;
  readonly settings: ResumptionSettings;
  readonly shared: SharedState | undefined;
  readonly logger: Logger;
  readonly streamOf: (session: Session, log: StreamLog) => EventStream;
  readonly priming: (session: Session) => boolean;
}

async function resume(context: Context, session: Session, lastEventId: string, keepAliveMs: number, release: () => void): Promise<HttpReply> {
  const named = parseEventId(lastEventId);
  if (!named) {
    release();
    return reject(Rejections.StreamNotResumable);
  }
  const isGet = named.streamId.startsWith('g');
  let stream = isGet ? (session.events?.id === named.streamId ? session.events : undefined) : session.streams.get(named.streamId);
  const sse = createSseStream({
    keepAliveMs,
    onEnd: release,
    onCancel: () => {
      if (session.stream === sse) session.stream = undefined;
      stream?.detach(sse);
      session.lastActive = Date.now();
    },
  });
  let resumed: boolean;
  try {
    if (!stream && isGet) stream = await takeOver(context, session, named.streamId, named.seq);
    resumed = stream ? await stream.resume(sse, named.seq) : await replayStored(context, session, named.streamId, named.seq, sse);
  } catch (error) {
    sse.close();
    context.logger.debug(`Cannot read a stream's events: ${messageOf(error)}`);
    return reject(Rejections.SharedStateUnavailable, null, RETRY_AFTER);
  }
  if (!resumed) {
    sse.close();
    return reject(Rejections.StreamNotResumable);
  }
  if (isGet) {
    // The GET stream again: what the backlog held was sent on it, in its events.
    if (session.stream !== sse) session.stream?.close();
    session.stream = sse;
    session.backlog.length = 0;
  }
  session.lastActive = Date.now();
  return { status: 200, headers: sseHeaders(), body: sse.body };
}

/** A GET stream another replica (or an earlier copy of the session) wrote: this replica writes it from now on. */
async function takeOver(context: Context, session: Session, streamId: string, after: number): Promise<EventStream | undefined> {
  const { store, shared, logger } = context;
  const seed = await store.log(session.id, streamId).after(after);
  if (!seed) return undefined;
  const stream = context.streamOf(session, store.log(session.id, streamId, seed));
  session.events = stream;
  shared
    ?.publish(TAKEN_TOPIC, `${shared.replica} ${session.id} ${streamId}`)
    .catch((error: unknown) => logger.debug(`Cannot tell replicas of a resumed stream: ${messageOf(error)}`));
  return stream;
}

/** A POST's answer no request here writes: what is stored after `after`, then the connection closes (the client polls while the stream goes on). */
async function replayStored(context: Context, session: Session, streamId: string, after: number, sse: SseStream): Promise<boolean> {
  const replay = await context.store.log(session.id, streamId).after(after);
  if (!replay) return false;
  if (context.priming(session)) sse.sendEvent('', undefined, context.settings.retryMs);
  for (const event of replay.events) if (event.data !== '') sse.sendEvent(event.data, eventId(streamId, event.seq));
  sse.close();
  return true;
}
