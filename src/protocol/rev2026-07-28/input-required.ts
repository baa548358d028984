/**
 * Input-required requests (2026-07-28 basic/patterns/mrtr, SEP-2322). A
 * handler that needs input calls `ctx.input(key, request)`: on the first round
 * the question is recorded and the request ends with an InputRequiredResult
 * (`inputRequests` and a sealed `requestState`); the client retries with the
 * same params plus `inputResponses` and the echoed state, and the handler runs
 * again from the start, now finding its answers. Only prompts/get,
 * resources/read and tools/call may answer this way.
 */
import { principalId } from '../../core/context.js';
import { CAPABILITY_OF, InputPendingError, type InputRequest, isAnswerTo, MissingClientCapabilityError } from '../../core/input.js';
import { InvalidParamsError } from '../../jsonrpc/errors.js';
import { isPlainObject } from '../../jsonrpc/messages.js';
import type { InputBroker, MethodHandler, Wire } from '../revision.js';
import type { StateCodec } from './request-state.js';

type Answers = Record<string, Record<string, unknown>>;

const NO_ANSWERS: Answers = Object.freeze({});

/** The methods that may answer with an InputRequiredResult (basic/patterns/mrtr). */
export const INPUT_METHODS: ReadonlySet<string> = new Set(['prompts/get', 'resources/read', 'tools/call']);

/** The `inputResponses` of a retry: a map of objects, or -32602. Keys nobody asks for are ignored later. */
function readResponses(value: unknown): Answers {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw new InvalidParamsError('"inputResponses" must be an object', { field: 'inputResponses' });
  for (const [key, answer] of Object.entries(value)) {
    if (!isPlainObject(answer)) throw new InvalidParamsError(`"inputResponses.${key}" must be an object`, { field: `inputResponses.${key}` });
  }
  return value as Answers;
}

/** The questions of one round and the answers it used. */
class Round implements InputBroker {
  /** The questions asked and not answered, in the order asked; made by the first (most rounds ask none). */
  pending: Map<string, InputRequest> | undefined = undefined;
  readonly used: Answers = {};
  readonly #known: Answers;
  readonly #capabilities: Readonly<Record<string, unknown>>;

  constructor(known: Answers, capabilities: Readonly<Record<string, unknown>>) {
    this.#known = known;
    this.#capabilities = capabilities;
  }

  ask(key: string, request: InputRequest): Promise<Record<string, unknown>> {
    const answer = Object.hasOwn(this.#known, key) ? this.#known[key] : undefined;
    if (answer !== undefined) {
      if (!isAnswerTo(request, answer)) {
        return Promise.reject(new InvalidParamsError(`"inputResponses.${key}" is not an answer to ${request.method}`, { field: `inputResponses.${key}` }));
      }
      this.used[key] = answer;
      return Promise.resolve(answer);
    }
    // Only what the client declared may be asked (basic/patterns/mrtr): -32021 otherwise.
    const capability = CAPABILITY_OF[request.method];
    if (!isPlainObject(this.#capabilities[capability])) return Promise.reject(new MissingClientCapabilityError([capability]));
    (this.pending ??= new Map()).set(key, request);
    return Promise.reject(new InputPendingError(`Waiting for the client's answer to "${key}"`));
  }
}

/** The InputRequiredResult of a round that ended for want of answers, its state sealed for the retry. */
async function inputRequired(
  round: Round,
  codec: StateCodec,
  method: string,
  params: Record<string, unknown>,
  carried: Answers,
  subject: string | undefined,
): Promise<Wire> {
  return {
    resultType: 'input_required',
    inputRequests: Object.fromEntries(round.pending ?? []),
    requestState: await codec.seal(method, params, { ...carried, ...round.used }, subject),
  };
}

/**
 * Wraps a handler of a method that may ask for input. The result of a round
 * that ended for want of answers is the InputRequiredResult; 2026-07-28's
 * envelope adds `_meta` to it like to any result.
 *
 * A question left open ends the round, whatever the handler made of the wait:
 * a natural `try { await ctx.input(…) } catch { … }` swallows the
 * InputPendingError, and its result or error was made without the answer.
 * The client is asked, and the retry finds the answer.
 */
export function withInput(method: string, handler: MethodHandler, codec: (ctx: Parameters<MethodHandler>[1]) => StateCodec): MethodHandler {
  /** Runs the handler in a round that knows `known`; its end rides on the handler's own promise. */
  const round = (params: Record<string, unknown>, ctx: Parameters<MethodHandler>[1], known: Answers, carried: Answers, subject: string | undefined) => {
    const asked = new Round(known, ctx.client?.capabilities ?? NO_ANSWERS);
    ctx.inputs = asked;
    const required = (): Promise<Wire> => inputRequired(asked, codec(ctx), method, params, carried, subject);
    let pending: Promise<Record<string, unknown>>;
    try {
      pending = handler(params, ctx);
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(
      (result) => (asked.pending === undefined ? result : required()),
      (error: unknown) => {
        if (asked.pending === undefined) throw error;
        return required();
      },
    );
  };
  const answered = async (params: Record<string, unknown>, ctx: Parameters<MethodHandler>[1]): Promise<Record<string, unknown>> => {
    // Bound to the caller (its client and subject) when the transport authenticated one (request-state.ts).
    const subject = principalId(ctx.principal);
    const carried = params.requestState === undefined ? NO_ANSWERS : await codec(ctx).open(params.requestState, method, params, subject);
    const responses = params.inputResponses === undefined ? NO_ANSWERS : readResponses(params.inputResponses);
    const known = carried === NO_ANSWERS ? responses : responses === NO_ANSWERS ? carried : { ...carried, ...responses };
    return round(params, ctx, known, carried, subject);
  };
  // Most requests carry neither answers nor state: no state to open, nothing to merge, no await
  // before the handler (an async wrapper would cost a promise and a turn more per request).
  return (params, ctx) => {
    if (params.requestState !== undefined || params.inputResponses !== undefined) return answered(params, ctx);
    try {
      return round(params, ctx, NO_ANSWERS, NO_ANSWERS, principalId(ctx.principal));
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
