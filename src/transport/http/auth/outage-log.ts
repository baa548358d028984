/**
 * What the log says when a part of the authorization server cannot be
 * reached (its metadata, its key set, its introspection endpoint): the
 * cause, once per outage, and once more when it answers again. Requests meet
 * an outage as 503s (or as keys kept); without this an operator would see
 * them with nothing in the log at any level. The cause is the error chain's
 * messages (node:fetch's "fetch failed: connect ECONNREFUSED …"): a request
 * to the authorization server carries a token or this server's client secret
 * only in its body or headers, which no error message repeats.
 */
import type { Logger } from '../../../server/index.js';

/** One part's state, as its requests succeed or fail. */
export interface OutageLog {
  /** The part could not be had: logged with `cause` unless an outage is already logged. */
  failed(cause: unknown, effect: string): void;
  /** The part answered: the end of a logged outage is logged. */
  answered(): void;
}

/** Longest cause quoted; an error chain is a line, not a page. */
const MAX_CAUSE = 400;

/** The messages of an error and its causes, joined: "fetch failed: connect ECONNREFUSED 127.0.0.1:1". */
export function causeText(error: unknown): string {
  const parts: string[] = [];
  for (let at: unknown = error, depth = 0; at !== undefined && at !== null && depth < 5; depth++) {
    const message = at instanceof Error ? at.message : String(at);
    if (message !== '' && !parts.includes(message)) parts.push(message);
    at = at instanceof Error ? at.cause : undefined;
  }
  // Control characters would let a far end's text shape the log line.
  const text = parts.join(': ').replace(/\p{Cc}/gu, ' ');
  return text.length > MAX_CAUSE ? `${text.slice(0, MAX_CAUSE)}…` : text;
}

/** The outage log of the part `what` ("the authorization server's key set"). */
export function createOutageLog(logger: Logger, what: string, status?: (up: boolean) => void): OutageLog {
  let down = false;
  return {
    failed(cause, effect) {
      if (down) return;
      down = true;
      logger.warn(`OAuth: ${what} cannot be reached (${causeText(cause)}); ${effect}`);
      status?.(false);
    },
    answered() {
      if (!down) return;
      down = false;
      logger.info(`OAuth: ${what} answers again`);
      status?.(true);
    },
  };
}
