/**
 * Neutral errors a provider throws. They carry no wire code: the revision
 * adapter picks it, because the code differs between revisions (a missing
 * resource is -32002 in 2025-06-18 and 2025-11-25 but -32602 in 2026-07-28).
 */

/** Thrown when a resource URI names nothing this server serves. */
export class ResourceNotFoundError extends Error {
  override name = 'ResourceNotFoundError';
  readonly uri: string;

  constructor(uri: string, message = `Resource not found: ${uri}`) {
    super(message);
    this.uri = uri;
  }
}

/** True for a {@link ResourceNotFoundError}, also one from another copy of this module. */
export function isResourceNotFoundError(value: unknown): value is ResourceNotFoundError {
  return (
    value instanceof ResourceNotFoundError ||
    (value instanceof Error && value.name === 'ResourceNotFoundError' && typeof (value as { uri?: unknown }).uri === 'string')
  );
}

/**
 * Thrown by a provider that stopped building a result because it would pass
 * one of the server's output caps (`ctx.limits`). The server answers it as it
 * answers a result over the cap: a generic -32603, with this message logged.
 */
export class OutputLimitError extends Error {
  override name = 'OutputLimitError';
}

/** True for an {@link OutputLimitError}, also one from another copy of this module. */
export function isOutputLimitError(value: unknown): value is OutputLimitError {
  return value instanceof OutputLimitError || (value instanceof Error && value.name === 'OutputLimitError');
}
