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

/**
 * Thrown when a tool's arguments do not satisfy its input schema. Revisions
 * answer it differently: 2025-06-18 as a protocol error (-32602, server/tools
 * §Error Handling: "Invalid arguments"), 2025-11-25 and later as a tool
 * result with `isError: true`, so the model can correct its call.
 */
export class ToolArgumentsError extends Error {
  override name = 'ToolArgumentsError';
  readonly tool: string;
  readonly issues: readonly string[];

  constructor(tool: string, issues: readonly string[]) {
    super(`Invalid arguments for tool "${tool}": ${issues.join('; ')}`);
    this.tool = tool;
    this.issues = issues;
  }
}

/** True for a {@link ToolArgumentsError}, also one from another copy of this module. */
export function isToolArgumentsError(value: unknown): value is ToolArgumentsError {
  return (
    value instanceof ToolArgumentsError ||
    (value instanceof Error && value.name === 'ToolArgumentsError' && Array.isArray((value as ToolArgumentsError).issues))
  );
}
