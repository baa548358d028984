/**
 * Contexts made outside a server, and the members a handler counts on filled
 * into a context that lacks them. A server's context has every member
 * already (server/in-flight.ts, server/task-input.ts), so the define*
 * wrappers hand it on as it is: only a context made by hand pays for a copy.
 */
import type { Can, HandlerContext, RequestContext } from './context.js';
import { silentLogger } from './context.js';
import { InputUnavailableError } from './input.js';

const NOTHING = (): void => {};

/** Nothing reaches a client: there is none. */
const CANNOT: Can = Object.freeze({ progress: false, log: () => false, input: () => false });

const NO_CLIENT: HandlerContext['client'] = Object.freeze({ capabilities: Object.freeze({}) });

const NO_INPUT: HandlerContext['input'] = () =>
  Promise.reject(new InputUnavailableError('Input from the client is not available: this context was made outside a server'));

/**
 * A context for calling a provider or handler outside a server (a test, a
 * script): the members of `partial` as given, and for the rest a signal that
 * never aborts, the silent logger, `log` and `progress` that do nothing,
 * `input` that rejects with an InputUnavailableError, a client that declared
 * nothing, and `can` saying so.
 *
 * @example
 * const result = await prompt.get({ topic: 'tests' }, requestContext());
 */
export function requestContext(partial: Partial<HandlerContext> = {}): HandlerContext {
  return handlerContext({ signal: new AbortController().signal, logger: silentLogger, ...partial });
}

/**
 * `ctx` with every member a handler counts on: the same object when it has
 * them all (a server's context), else a copy with the missing ones filled as
 * {@link requestContext} fills them. The copy keeps `ctx`'s accessors
 * (`cancelled` reads the request's state, not a value taken now).
 */
export function handlerContext(ctx: RequestContext): HandlerContext {
  if (ctx.can !== undefined && ctx.log !== undefined && ctx.progress !== undefined && ctx.input !== undefined && ctx.client !== undefined) {
    return ctx as HandlerContext;
  }
  const full: { -readonly [K in keyof HandlerContext]?: HandlerContext[K] } = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx));
  full.log ??= NOTHING;
  full.progress ??= NOTHING;
  full.input ??= NO_INPUT;
  full.client ??= NO_CLIENT;
  full.can ??= CANNOT;
  return full as HandlerContext;
}
