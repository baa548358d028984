/**
 * What the server tells whoever watches it (metrics, traces, request logs)
 * about each request it runs, and about each session it opens. Nothing here
 * formats or exports anything: telemetry/ does, and the transports pass on
 * only what they alone know (the peer's transport and session id, an HTTP
 * `traceparent`). With no observer the connection checks one property per
 * request and allocates nothing.
 */
import type { JsonRpcResponse, RequestId } from '../jsonrpc/messages.js';
import type { RequestFacts } from '../protocol/index.js';
import type { Peer } from './peer.js';

/** One request as it starts: the method is one the request's revision serves, never a client's free text. */
export interface ObservedRequest {
  readonly method: string;
  readonly id: RequestId;
  /** The params as the client sent them: untrusted, and a name in them may name nothing served. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The revision the request is answered in. */
  readonly protocolVersion: string;
  readonly facts: RequestFacts;
  readonly peer: Peer;
}

/**
 * Called once when the request is answered: with its response, or undefined
 * when it was cancelled (or its peer went away) and nothing was sent.
 */
export type RequestEnd = (response: JsonRpcResponse | undefined) => void;

/** Called once when a session ends (its connection closed for good). */
export type SessionEnd = () => void;

/** Watches a server's requests; every member is optional. */
export interface RequestObserver {
  /** A request starts; the function returned, if any, is called when it ends. */
  request?(request: ObservedRequest): RequestEnd | undefined;
  /**
   * A 2025 session opens by its handshake (not one carried on from a
   * snapshot: a replica that restores a session did not see it begin).
   */
  session?(protocolVersion: string, peer: Peer): SessionEnd | undefined;
}

/** The observers a server has, read by each connection as it runs a request. */
export interface Observers {
  /** The observers joined, or undefined when there are none. */
  current: RequestObserver | undefined;
}

/** Adds `observer` to `observers`; the function returned removes it again. */
export function addObserver(observers: Observers, all: RequestObserver[], observer: RequestObserver): () => void {
  all.push(observer);
  observers.current = joined(all);
  return () => {
    const at = all.indexOf(observer);
    if (at === -1) return;
    all.splice(at, 1);
    observers.current = joined(all);
  };
}

/** One observer for several: each is told, in the order added; one that throws does not stop the others. */
function joined(all: readonly RequestObserver[]): RequestObserver | undefined {
  if (all.length === 0) return undefined;
  if (all.length === 1) return guarded(all[0] as RequestObserver);
  const list = [...all];
  return {
    request(request) {
      const ends = list.map((observer) => safely(() => observer.request?.(request)));
      return (response) => {
        for (const end of ends) safely(() => end?.(response));
      };
    },
    session(version, peer) {
      const ends = list.map((observer) => safely(() => observer.session?.(version, peer)));
      return () => {
        for (const end of ends) safely(() => end?.());
      };
    },
  };
}

/**
 * One observer alone (metrics, or traces: the usual case), guarded as the
 * joined ones are, without the closures per request a list of them needs:
 * the connection calls a request's end inside a try of its own.
 */
function guarded(observer: RequestObserver): RequestObserver {
  return {
    request(request) {
      try {
        return observer.request?.(request);
      } catch {
        return undefined;
      }
    },
    session(version, peer) {
      const end = safely(() => observer.session?.(version, peer));
      return end && (() => void safely(end));
    },
  };
}

/** Tells a request's end to its observer; a throw there is the observer's own: the answer goes out all the same. */
export function tellEnd(end: RequestEnd, response: JsonRpcResponse | undefined): void {
  try {
    end(response);
  } catch {
    // As in safely().
  }
}

function safely<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    // An observer's failure is its own: the request is answered all the same.
    return undefined;
  }
}
