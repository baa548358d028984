/**
 * Finding the session a request names, and ending one on DELETE: from this
 * handler's store, or with shared state (sessions/shared.ts) from the record
 * other replicas see, rebuilt here first. Under OAuth a session belongs to
 * the caller that opened it (its token's client and subject: principalId):
 * to anyone else it does not exist (404),
 * as an unknown session is answered (2025-11-25 streamable-http §Session
 * Management).
 */
import { type Logger, type Principal, principalId } from '../../../server/index.js';
import { RETRY_AFTER, Rejections, reject } from '../errors.js';
import { HEADER } from '../headers.js';
import type { HttpReply, HttpRequest } from '../request.js';
import { messageOf, type SharedSessions } from './shared.js';
import type { Session, SessionStore } from './store.js';

type Reply = HttpReply | Promise<HttpReply>;

export interface SessionLookup {
  /** Calls `then` with the session named `id`, or undefined when it is unknown or another caller's. */
  find(id: string, principal: Principal | undefined, then: (session: Session | undefined) => Reply): Reply;
  /** GET and DELETE: the session the request names, 405 without one, 404 for an unknown one. */
  named(request: HttpRequest, principal: Principal | undefined, then: (session: Session) => Reply): Reply;
  /** Ends `session` (on every replica with shared state): 204. */
  end(session: Session): Reply;
}

export function createSessionLookup(
  store: SessionStore,
  shared: SharedSessions | undefined,
  sessionsEnabled: boolean,
  allowed: string,
  logger: Logger,
): SessionLookup {
  function unavailable(what: string): (error: unknown) => HttpReply {
    return (error) => {
      // Per request, at debug: the shared state logs its outage once, with the cause (redis.ts).
      logger.debug(`Cannot ${what} a shared session: ${messageOf(error)}`);
      return reject(Rejections.SharedStateUnavailable, null, RETRY_AFTER);
    };
  }

  function find(id: string, principal: Principal | undefined, then: (session: Session | undefined) => Reply): Reply {
    const caller = principalId(principal);
    const own = (session: Session | undefined): Reply => then(session && session.owner !== caller ? undefined : session);
    const found = shared ? shared.find(id) : store.get(id);
    if (!(found instanceof Promise)) return own(found);
    return found.then(own, unavailable('look up'));
  }

  return {
    find,
    named(request, principal, then) {
      const id = sessionsEnabled ? request.headers.get(HEADER.sessionId) : null;
      // Without a session there is no GET stream and nothing to delete: 405, as a
      // 2026-07-28 server answers (streamable-http §Backward Compatibility).
      if (id === null) return reject(Rejections.MethodNotAllowed, null, { [HEADER.allow]: allowed });
      return find(id.trim(), principal, (session) => (session ? then(session) : reject(Rejections.SessionNotFound)));
    },
    end(session) {
      logger.debug(`Ending session ${session.id} on DELETE`);
      const ended: HttpReply = { status: 204, headers: {} };
      if (!shared) {
        store.end(session.id);
        return ended;
      }
      return shared.end(session.id).then(() => ended, unavailable('end'));
    },
  };
}
