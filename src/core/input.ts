/**
 * Input a handler needs from the client in the middle of a request: ask the
 * user (elicitation), the client's model (sampling), or the client's roots.
 * One API for handler authors (`ctx.input`); each revision carries it its own
 * way (2026-07-28: an InputRequiredResult and a retry, basic/patterns/mrtr).
 */
import type { JsonSchema } from './model.js';
import type { StandardSchema } from './tool-schema.js';

/**
 * The form an elicitation asks for: a JSON Schema object as the client gets
 * it (a flat object of primitive properties, client/elicitation
 * §Requested Schema), or a Standard Schema (zod 4, valibot, arktype) that
 * `ctx.input` converts to one and validates the answer with.
 */
export type ElicitationSchema = JsonSchema | StandardSchema;

/** A question for the client, as the protocol names it. */
export type InputRequest =
  | { method: 'elicitation/create'; params: { mode?: 'form'; message: string; requestedSchema: ElicitationSchema } }
  | { method: 'sampling/createMessage'; params: Record<string, unknown> & { messages: unknown[]; maxTokens: number } }
  | { method: 'roots/list'; params?: Record<string, unknown> };

/** The user's answer to an elicitation whose schema is JSON Schema. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  /** The submitted form, when accepted. */
  content?: Record<string, string | number | boolean | string[]>;
}

/**
 * The user's answer to an elicitation whose schema is a Standard Schema with
 * output `T`: an accepted form is there, validated and typed; a declined or
 * cancelled one carries nothing (client/elicitation §Response Actions).
 */
export type ElicitAnswer<T> = { action: 'accept'; content: T } | { action: 'decline' | 'cancel'; content?: undefined };

/** The client's answer to each kind of question (not distributed over a union of questions, as before Standard Schemas). */
export type InputResponse<R extends InputRequest = InputRequest> = [R] extends [{ method: 'elicitation/create'; params: { requestedSchema: infer S } }]
  ? [S] extends [StandardSchema<unknown, infer T>]
    ? ElicitAnswer<T>
    : ElicitResult
  : R['method'] extends 'roots/list'
    ? { roots: Array<{ uri: string; name?: string }> }
    : Record<string, unknown> & { role: string; content: unknown; model: string };

/** The client capability each kind of question needs (2026-07-28 basic/patterns/mrtr). */
export const CAPABILITY_OF: Readonly<Record<InputRequest['method'], string>> = Object.freeze({
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
});

/**
 * Whether `answer` is a well-formed answer to `request` (the schema's
 * InputResponse union): the client's reply is untrusted input like any other
 * (conformance `input-required-result-validate-input` sends 12345 and null).
 */
export function isAnswerTo(request: InputRequest, answer: unknown): answer is Record<string, unknown> {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return false;
  const reply = answer as Record<string, unknown>;
  switch (request.method) {
    case 'elicitation/create':
      return (
        ['accept', 'decline', 'cancel'].includes(reply.action as string) &&
        (reply.content === undefined || (typeof reply.content === 'object' && reply.content !== null && !Array.isArray(reply.content)))
      );
    case 'sampling/createMessage':
      return typeof reply.role === 'string' && typeof reply.model === 'string' && reply.content !== undefined;
    case 'roots/list':
      return Array.isArray(reply.roots);
  }
}

/**
 * Thrown by `ctx.input` when the answer is not there yet and the request must
 * end now so the client can answer (2026-07-28). A handler lets it pass; the
 * server turns it into the request's InputRequiredResult.
 */
export class InputPendingError extends Error {
  override name = 'InputPendingError';
}

/**
 * True for an {@link InputPendingError}, also one from another copy of this
 * module. A handler that catches errors around `ctx.input` may rethrow it;
 * it need not: a question left open ends the round anyway.
 */
export function isInputPendingError(value: unknown): value is InputPendingError {
  return value instanceof InputPendingError || (value instanceof Error && value.name === 'InputPendingError');
}

/**
 * Thrown by `ctx.input` where the transport cannot carry a question to the
 * client (a 2025 revision over HTTP without sessions: no stream brings the
 * answer back). A handler may catch it and go on without the answer.
 */
export class InputUnavailableError extends Error {
  override name = 'InputUnavailableError';
}

/** True for an {@link InputUnavailableError}, also one from another copy of this module. */
export function isInputUnavailableError(value: unknown): value is InputUnavailableError {
  return value instanceof InputUnavailableError || (value instanceof Error && value.name === 'InputUnavailableError');
}

/** Thrown when a handler asks for input the client cannot give (it did not declare the capability). */
export class MissingClientCapabilityError extends Error {
  override name = 'MissingClientCapabilityError';
  readonly required: readonly string[];
  /**
   * The capabilities needed, shaped as the client declares them, where a
   * name is not enough (an extension: `{ extensions: { [id]: {} } }`).
   */
  readonly capabilities: Readonly<Record<string, unknown>> | undefined;

  constructor(required: readonly string[], capabilities?: Readonly<Record<string, unknown>>) {
    super(`The client did not declare the ${required.join(', ')} capability this request needs`);
    this.required = required;
    this.capabilities = capabilities;
  }
}

/** True for a {@link MissingClientCapabilityError}, also one from another copy of this module. */
export function isMissingClientCapabilityError(value: unknown): value is MissingClientCapabilityError {
  return (
    value instanceof MissingClientCapabilityError ||
    (value instanceof Error && value.name === 'MissingClientCapabilityError' && Array.isArray((value as MissingClientCapabilityError).required))
  );
}
