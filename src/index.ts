/**
 * skillport: an MCP prompt server. This entry is the protocol-neutral library:
 * declare prompts, completions and resources, then serve them with a
 * transport (`skillport/stdio`).
 */

export { combinePrompts } from './core/combine.js';
export type { Completer, CompletionSource } from './core/completers.js';
export type { Awaitable, Can, HandlerContext, Logger, LogLevel, OutputLimits, Principal, RequestContext } from './core/context.js';
// Context and model
export { silentLogger } from './core/context.js';
export type { CompletionProvider, Features } from './core/engine.js';
// Errors
export { isResourceNotFoundError, isToolArgumentsError, OutputLimitError, ResourceNotFoundError, ToolArgumentsError } from './core/errors.js';
export { requestContext } from './core/handler-context.js';
export type { ElicitAnswer, ElicitationSchema, ElicitResult, InputRequest, InputResponse } from './core/input.js';
export {
  InputPendingError,
  InputUnavailableError,
  isInputPendingError,
  isInputUnavailableError,
  isMissingClientCapabilityError,
  MissingClientCapabilityError,
} from './core/input.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolResult,
  Completion,
  CompletionArgument,
  CompletionContext,
  CompletionRef,
  ContentBlock,
  EmbeddedResource,
  Icon,
  ImageContent,
  JsonSchema,
  Meta,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptResult,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  Role,
  ServerInfo,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from './core/model.js';
export type {
  LivePrompts,
  PromptArgs,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptDefinitionInput,
  PromptOutput,
  PromptProvider,
} from './core/prompts.js';
// Prompts
export { definePrompt, livePrompts, staticPrompts } from './core/prompts.js';
export type { CompletionIndex } from './core/rank.js';
// Completion
export { createCompletionIndex, MAX_COMPLETION_VALUES, rankCompletions } from './core/rank.js';
export type {
  AnyResourceDefinition,
  LiveResources,
  ResourceDefinition,
  ResourceDefinitionInput,
  ResourceEvent,
  ResourceOutput,
  ResourceProvider,
  ResourceSet,
  ResourceTemplateDefinition,
  ResourceTemplateDefinitionInput,
} from './core/resources.js';
// Resources
export { defineResource, defineResourceTemplate, liveResources, staticResources, toBase64 } from './core/resources.js';
// Skills extension
export type { SkillEntry, SkillFile, SkillsProvider } from './core/skills.js';
// Tasks
export type { TaskError, TaskRecord, TaskStatus, TaskStore, TaskSupport } from './core/tasks.js';
export { memoryTaskStore } from './core/tasks.js';
export type { StandardSchema, ToolSchema } from './core/tool-schema.js';
export type { LiveTools, ToolDefinition, ToolDefinitionInput, ToolOutput, ToolProvider } from './core/tools.js';
// Tools
export { combineTools, defineTool, liveTools, staticTools } from './core/tools.js';
export { ErrorCode, InvalidParamsError, isProtocolError, MethodNotFoundError, ProtocolError } from './jsonrpc/errors.js';
// Protocol facts
export { LEGACY_VERSIONS, MODERN_VERSIONS, SUPPORTED_VERSIONS } from './protocol/index.js';
export type {
  CloseReason,
  Connection,
  ConnectOptions,
  ObservedRequest,
  Peer,
  RequestEnd,
  RequestObserver,
  Server,
  ServerLimits,
  ServerOptions,
  SessionEnd,
  SessionSnapshot,
  TaskOptions,
  TaskRunner,
} from './server/index.js';
// Server
export { createServer, DEFAULT_LIMITS } from './server/index.js';
// Printing untrusted text
export type { EscapeOptions } from './util/printable.js';
export { escapeControls, escapeJsonControls } from './util/printable.js';
export type { TemplateVariableNames, TemplateVariables, UriTemplate } from './util/uri-template.js';
export { parseUriTemplate } from './util/uri-template.js';

// Not exported: the engine, the revision adapters and the connection
// internals. They are the seam between layers, not a stable API.
