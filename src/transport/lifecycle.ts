/**
 * The lifecycle every transport shares: serving, then draining, then closed.
 * stdio (`serveStdio`), the web handler (`createHttpHandler`) and the
 * node:http server (`serveHttp`) each stop through {@link createLifecycle}
 * and {@link drain}, so a rule about stopping is written here once.
 *
 * MCP defines no shutdown message (2025-06-18 basic/lifecycle §Shutdown): the
 * transport ends the conversation, and a stdio client that closed stdin waits
 * "a reasonable time" for the server to exit before SIGTERM. The drain is
 * that reasonable time on our side:
 *
 * 1. every connection hears `close('shutdown')`: listen requests end with
 *    their result (2026-07-28 subscriptions: the server SHOULD answer the
 *    listen request when it ends the stream), other requests run on;
 * 2. the transport waits until what it received is answered, or until the
 *    drain time is up, whichever comes first;
 * 3. every connection hears `close('disconnect')`: what still runs is
 *    cancelled and answered with nothing (2025-06-18 utilities/cancellation:
 *    no response for a cancelled request), and nothing more is sent.
 *
 * A transport refuses new work from the moment the drain starts (the
 * lifecycle's `state` is no longer `serving`), each in its own way: stdio
 * stops reading stdin, the web handler answers 503, the node server stops
 * accepting connections.
 *
 * Not exported from any entry: a transport's public surface is its options
 * (`drainTimeoutMs`) and its `close()`/`shutdown()`.
 */
import type { CloseReason } from '../server/index.js';

/** How long in-flight requests may finish once a transport stops, unless `drainTimeoutMs` says otherwise. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 5000;

/** Where a transport is in its life: it takes new work only while `serving`. */
export type LifecycleState = 'serving' | 'draining' | 'closed';

/** A transport's stop, run once however often it is asked for. */
export interface Lifecycle {
  readonly state: LifecycleState;
  /**
   * Starts the stop the first time and returns its promise; every later call
   * returns that same promise, so callers (a signal handler, stdin's end, a
   * test) can all wait on it.
   */
  close(): Promise<void>;
}

/**
 * Creates a transport's lifecycle around its stop. `state` becomes `draining`
 * before `stop` runs (in the same turn as the first `close()`), so nothing that
 * arrives after that is taken on, and `closed` once `stop` has settled.
 */
export function createLifecycle(stop: () => Promise<void>): Lifecycle {
  let state: LifecycleState = 'serving';
  let closing: Promise<void> | undefined;
  return {
    get state() {
      return state;
    },
    close() {
      closing ??= (async () => {
        state = 'draining';
        try {
          await stop();
        } finally {
          state = 'closed';
        }
      })();
      return closing;
    },
  };
}

/** What a drain ends: a server connection, or anything that can be told to finish and then to stop. */
export interface Drainable {
  /** `shutdown`: finish what you have; `disconnect`: stop now (see server/connection.ts). */
  close(reason: CloseReason): void;
}

/** What {@link drain} needs from a transport. */
export interface DrainPlan {
  /** What to end, asked at the start and again at the end (what opened meanwhile is ended too). */
  connections(): Iterable<Drainable>;
  /** Resolves once everything received is answered; called after every connection heard `shutdown`. */
  settled(): Promise<void>;
  /** How long to wait for {@link DrainPlan.settled} before cutting what is left. */
  timeoutMs: number;
}

/**
 * Drains connections: `shutdown` to each, then wait for `settled()` or the
 * drain time, then `disconnect` to each. Resolves true when everything
 * settled in time, false when the drain time ran out. The `shutdown` calls are
 * made in the same turn as the call to `drain`.
 */
export async function drain(plan: DrainPlan): Promise<boolean> {
  for (const connection of plan.connections()) connection.close('shutdown');
  const inTime = await withinDrainTime(plan.settled(), plan.timeoutMs);
  for (const connection of plan.connections()) connection.close('disconnect');
  return inTime;
}

/**
 * Waits for `settled` or `timeoutMs`, whichever comes first: true when it
 * settled in time. The timer is unreferenced, so a drain never keeps the
 * process alive by itself, and cleared as soon as the wait is over.
 */
export async function withinDrainTime(settled: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    (timer as { unref?: () => void }).unref?.();
  });
  try {
    return await Promise.race([settled.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
