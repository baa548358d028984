/**
 * Tools: the provider interface the server reads, and the helpers that make
 * the common case one call (`defineTool`, `staticTools`, `liveTools`,
 * `combineTools`), shaped like prompts.
 */
import { ErrorCode, isProtocolError, ProtocolError } from '../jsonrpc/errors.js';
import { audienceKey } from './audience.js';
import type { Awaitable, HandlerContext, Principal, RequestContext } from './context.js';
import { isOutputLimitError, isToolArgumentsError, ToolArgumentsError } from './errors.js';
import { handlerContext } from './handler-context.js';
import { InputPendingError, isMissingClientCapabilityError } from './input.js';
import type { CallToolResult, ContentBlock, Icon, Meta, Tool, ToolAnnotations } from './model.js';
import { combineNamed, findNamed, liveSet, type NamedSet, namedSet } from './named.js';
import { mirroredParams } from './tool-headers.js';
import { type CompiledSchema, compileSchema, type SchemaOutput, type StandardSchema, type ToolSchema } from './tool-schema.js';

/**
 * A source of tools. The server calls `list()` to build its catalogue and
 * keeps it until `watch` reports a change. `call` runs only for a listed
 * tool; checking the arguments is the provider's (definitions made with
 * {@link defineTool} check them against their schema), and arguments that
 * fail are a {@link ToolArgumentsError}.
 */
export interface ToolProvider {
  list(): Awaitable<readonly Tool[]>;
  /**
   * The tools as the caller `principal` sees them, when that differs from
   * `list()` (a description that names what the caller may use), or
   * undefined when it does not: an answer made for the caller is marked as
   * such (2026-07-28: `cacheScope: "private"`). Return the same array for
   * the same audiences (core/audience.ts): its pages are kept by it, so it
   * must not change once returned (a change is a new array). The names must
   * be those of `list()`.
   */
  listFor?(principal: Principal): Awaitable<readonly Tool[] | undefined>;
  /**
   * `prepared`: what `prepare` returned, for a call that runs as a task
   * (core/tasks.ts); undefined otherwise.
   */
  call(name: string, args: Record<string, unknown>, ctx: RequestContext, prepared?: unknown): Awaitable<CallToolResult>;
  /**
   * Runs in the request before a call of a task-supporting tool becomes a
   * task: checks the arguments (a {@link ToolArgumentsError}) and may ask the
   * client through `ctx.input` as any request does. What it returns goes to `call`.
   */
  prepare?(name: string, args: Record<string, unknown>, ctx: RequestContext): Awaitable<unknown>;
  /** True when some tool may run as a task: the server then declares tasks. */
  readonly tasks?: boolean;
  /** Present when the set can change; the server then advertises `listChanged`. */
  watch?(listener: () => void): () => void;
}

/**
 * What a tool's `call` may return: one text, content blocks, or a result.
 * A result with `structuredContent` and no `content` gets the JSON text of
 * the structured content as its content (server/tools §Structured Content:
 * for clients that do not read structured content).
 */
export type ToolOutput<O = Record<string, unknown>> =
  | string
  | ContentBlock[]
  | { content: ContentBlock[]; structuredContent?: O; isError?: boolean; _meta?: Meta }
  | { content?: ContentBlock[]; structuredContent: O; isError?: boolean; _meta?: Meta };

/** The input of {@link defineTool}. */
export interface ToolDefinitionInput<I extends ToolSchema, O extends ToolSchema | undefined, P = undefined> {
  name: string;
  title?: string;
  description?: string;
  /**
   * The arguments: a JSON Schema object (`"type": "object"`, 2020-12 unless
   * `$schema` says otherwise) or a Standard Schema (zod 4, valibot, arktype).
   * Omitted: the tool takes no arguments.
   */
  inputSchema?: I;
  /** The `structuredContent` every successful call returns, checked before it is sent. */
  outputSchema?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
  /**
   * Whether the tool may run as a task the client polls, cancels and reads
   * later, even after its connection dropped (2025-11-25 tasks; the
   * 2026-07-28 Tasks extension): `optional`, a task when the client can take
   * one; `required`, a task or nothing (a client that cannot take one gets an
   * error). Default `forbidden`. A task's `ctx` is its own: `signal` aborts on
   * `tasks/cancel`, not when the request that started it ends.
   */
  task?: 'forbidden' | 'optional' | 'required';
  /**
   * For a task: runs in the request before the task is created, where
   * `ctx.input` asks as in any request (2026-07-28: an InputRequiredResult
   * round). Its result is `call`'s third argument. Without a task (the tool
   * runs at once), it runs just before `call`.
   */
  prepare?(args: SchemaOutput<I>, ctx: HandlerContext): Awaitable<P>;
  /**
   * Runs the tool with arguments that passed `inputSchema`. A throw is a
   * failure of the tool, answered as a result with `isError: true` and the
   * error's message for the model; a {@link ProtocolError} is answered as
   * that JSON-RPC error instead, and a {@link ToolArgumentsError} (arguments
   * the schema let through but the tool cannot take) as each revision
   * answers invalid arguments.
   */
  call(args: SchemaOutput<I>, ctx: HandlerContext, prepared: P): Awaitable<ToolOutput<O extends undefined ? Record<string, unknown> : SchemaOutput<O>>>;
}

/** What a definition's `prepare` made of a call: the checked arguments, and what the user's `prepare` returned. */
export interface PreparedCall {
  /** The arguments as the schema gave them back (a Standard Schema may transform them). */
  readonly args: unknown;
  readonly value: unknown;
}

/** A defined tool: its listing entry and how to call it. */
export interface ToolDefinition {
  readonly tool: Tool;
  /**
   * `prepared`: what `prepare` returned (a task), whose arguments are not
   * checked again; absent, the arguments are checked and `prepare` runs first.
   */
  call(args: Record<string, unknown>, ctx: RequestContext, prepared?: PreparedCall): Promise<CallToolResult>;
  /** Checks the arguments and runs the definition's `prepare`. */
  prepare(args: Record<string, unknown>, ctx: RequestContext): Promise<PreparedCall>;
}

/** The schema of a tool without arguments (2026-07-28 server/tools: the recommended form). */
const NO_ARGUMENTS = Object.freeze({ type: 'object', additionalProperties: false });

/** Defines a tool; its schemas are checked now, and its arguments on every call. */
export function defineTool<I extends ToolSchema = typeof NO_ARGUMENTS, O extends ToolSchema | undefined = undefined, P = undefined>(
  input: ToolDefinitionInput<I, O, P>,
): ToolDefinition {
  const { name } = input;
  if (typeof input.call !== 'function') throw new TypeError(`Tool "${name}" needs a call function`);
  const inputSchema = compileSchema((input.inputSchema ?? NO_ARGUMENTS) as ToolSchema, name, 'inputSchema');
  const outputSchema = input.outputSchema === undefined ? undefined : compileSchema(input.outputSchema, name, 'outputSchema');
  // A client drops a tool whose header annotations break the rules (2026-07-28
  // streamable-http §Schema Extension): better refused here than silently lost there.
  const { problems } = mirroredParams(inputSchema.json);
  if (problems.length > 0) throw new TypeError(`Tool "${name}": ${problems.join('; ')}`);
  const tool: Tool = { name, inputSchema: inputSchema.json };
  if (input.title !== undefined) tool.title = input.title;
  if (input.description !== undefined) tool.description = input.description;
  if (outputSchema) tool.outputSchema = outputSchema.json;
  if (input.annotations !== undefined) tool.annotations = input.annotations;
  if (input.icons !== undefined) tool.icons = input.icons;
  if (input.task !== undefined && input.task !== 'forbidden') tool.execution = { taskSupport: input.task };
  if (input._meta !== undefined) tool._meta = input._meta;
  const run = input.call as (args: unknown, ctx: HandlerContext, prepared: unknown) => Awaitable<ToolOutput<unknown>>;
  const before = input.prepare as ((args: unknown, ctx: HandlerContext) => Awaitable<unknown>) | undefined;

  async function check(args: Record<string, unknown>): Promise<unknown> {
    const checked = await inputSchema.validate(args);
    if (!checked.ok) throw new ToolArgumentsError(name, checked.issues);
    return checked.value;
  }

  async function prepare(args: Record<string, unknown>, ctx: RequestContext): Promise<PreparedCall> {
    const checked = await check(args);
    return { args: checked, value: before ? await before(checked, handlerContext(ctx)) : undefined };
  }

  return {
    tool,
    prepare,
    async call(args, ctx, prepared) {
      // Checked once: in the request that made the task, or here.
      const checked = prepared ? prepared.args : await check(args);
      let output: ToolOutput<unknown>;
      try {
        const full = handlerContext(ctx);
        const value = prepared ? prepared.value : before ? await before(checked, full) : undefined;
        output = await run(checked, full, value);
      } catch (error) {
        // Not failures of the tool: a protocol error, an output cap, a wait for the client's input,
        // or invalid arguments the tool found itself, answered as those the schema finds (2025-06-18:
        // a protocol error, server/tools §Error Handling).
        if (
          isProtocolError(error) ||
          isOutputLimitError(error) ||
          isToolArgumentsError(error) ||
          error instanceof InputPendingError ||
          isMissingClientCapabilityError(error)
        ) {
          throw error;
        }
        return failure(error);
      }
      const result = toResult(output);
      if (outputSchema && !result.isError) await checkOutput(outputSchema, result, name, ctx);
      return result;
    },
  };
}

/** A tool that threw: the message is for the model to act on (server/tools §Error Handling). */
function failure(error: unknown): CallToolResult {
  const text = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text }], isError: true };
}

function toResult(output: ToolOutput<unknown>): CallToolResult {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  if (Array.isArray(output)) return { content: output };
  const structured = output.structuredContent as Record<string, unknown> | undefined;
  const result: CallToolResult = { content: output.content ?? [{ type: 'text', text: JSON.stringify(structured) }] };
  if (structured !== undefined) result.structuredContent = structured;
  if (output.isError !== undefined) result.isError = output.isError;
  if (output._meta !== undefined) result._meta = output._meta;
  return result;
}

/**
 * server/tools §Output Schema: a server MUST return structured results that
 * conform to it. One that does not is the server's fault: -32603, the details
 * logged, not sent.
 */
async function checkOutput(schema: CompiledSchema, result: CallToolResult, name: string, ctx: RequestContext): Promise<void> {
  const checked =
    result.structuredContent === undefined ? { ok: false as const, issues: ['no structuredContent'] } : await schema.validate(result.structuredContent);
  if (checked.ok) return;
  ctx.logger.error(`Tool "${name}" returned a result that does not match its outputSchema`, checked.issues);
  throw new ProtocolError(ErrorCode.InternalError, `Tool "${name}" failed`);
}

const entryOf = (definition: ToolDefinition): Tool => definition.tool;

/** Whether any of `definitions` may run as a task. */
const anyTask = (definitions: readonly ToolDefinition[]): boolean => definitions.some((definition) => definition.tool.execution?.taskSupport);

function providerOver(current: () => NamedSet<ToolDefinition, Tool>, tasks: boolean): ToolProvider {
  return {
    list: () => current().list,
    call: async (name, args, ctx, prepared) => findNamed(current(), name, 'tool').call(args, ctx, prepared as PreparedCall | undefined),
    prepare: (name, args, ctx) => findNamed(current(), name, 'tool').prepare(args, ctx),
    tasks,
  };
}

/** A fixed set of tools. Throws on a duplicate name. */
export function staticTools(definitions: readonly ToolDefinition[]): ToolProvider {
  const state = namedSet(definitions, entryOf, 'tool');
  return providerOver(() => state, anyTask(definitions));
}

/** A tool set that can be replaced while serving; clients are told of each change. */
export interface LiveTools extends ToolProvider {
  watch(listener: () => void): () => void;
  /** Replaces the whole set atomically and notifies watchers. Throws on a duplicate name. */
  set(definitions: readonly ToolDefinition[]): void;
}

/**
 * Creates a {@link LiveTools} starting with `definitions`. `tasks`: whether
 * tools that run as tasks may come later (declared from the start, as
 * capabilities are); by default, whether one is among `definitions`.
 */
export function liveTools(definitions: readonly ToolDefinition[] = [], options: { tasks?: boolean } = {}): LiveTools {
  const live = liveSet(definitions, entryOf, 'tool');
  return { ...providerOver(live.current, options.tasks ?? anyTask(definitions)), watch: live.watch, set: live.replace };
}

/** Serves several tool providers as one; the catalogue throws on a duplicate tool name. */
export function combineTools(...providers: ToolProvider[]): ToolProvider {
  const { list, owner, watch } = combineNamed<ToolProvider, Tool>(providers, 'tool', 'combineTools');
  const combined: ToolProvider = {
    list,
    call: (name, args, ctx, prepared) => owner(name).call(name, args, ctx, prepared),
    prepare: async (name, args, ctx) => owner(name).prepare?.(name, args, ctx),
    tasks: providers.some((provider) => provider.tasks),
  };
  if (watch) combined.watch = watch;
  // A part that lists per caller keeps doing so in the whole; the same parts give the same array.
  if (providers.some((provider) => provider.listFor)) {
    const kept = new Map<string, { parts: readonly (readonly Tool[])[]; tools: readonly Tool[] }>();
    combined.listFor = async (principal) => {
      const own = await Promise.all(providers.map((provider) => provider.listFor?.(principal)));
      // No part lists for this caller: neither does the whole.
      if (own.every((part) => part === undefined)) return undefined;
      const parts = await Promise.all(providers.map((provider, i) => own[i] ?? provider.list()));
      const key = audienceKey(principal);
      const known = kept.get(key);
      if (known?.parts.every((part, i) => part === parts[i])) return known.tools;
      const tools = parts.flat();
      if (kept.size >= 64) kept.delete(kept.keys().next().value as string);
      kept.set(key, { parts, tools });
      return tools;
    };
  }
  return combined;
}

export type { StandardSchema, ToolSchema };
