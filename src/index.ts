/**
 * skillport: an MCP prompt server. This entry is the protocol-neutral library:
 * declare prompts, completions and resources, then serve them with a
 * transport (`skillport/stdio`).
 */

// Server
export { createServer, DEFAULT_LIMITS } from './server/index.js';
export type { CloseReason, Connection, Peer, Server, ServerLimits, ServerOptions } from './server/index.js';

// Prompts
export { definePrompt, livePrompts, staticPrompts } from './core/prompts.js';
export type {
  LivePrompts,
  PromptArgs,
  PromptArgumentDefinition,
  PromptDefinition,
  PromptDefinitionInput,
  PromptOutput,
  PromptProvider,
} from './core/prompts.js';
export { combinePrompts } from './core/combine.js';

// Completion
export { createCompletionIndex, MAX_COMPLETION_VALUES, rankCompletions } from './core/rank.js';
export type { CompletionIndex } from './core/rank.js';
export type { Completer, CompletionSource } from './core/completers.js';
export type { CompletionProvider, Features } from './core/engine.js';

// Resources
export { defineResource, defineResourceTemplate, liveResources, staticResources, toBase64 } from './core/resources.js';
export type {
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
export { parseUriTemplate } from './core/uri-template.js';
export type { UriTemplate } from './core/uri-template.js';

// Skills extension
export type { SkillEntry, SkillFile, SkillsProvider } from './core/skills.js';

// Errors
export { isResourceNotFoundError, OutputLimitError, ResourceNotFoundError } from './core/errors.js';
export { ErrorCode, InvalidParamsError, isProtocolError, MethodNotFoundError, ProtocolError } from './jsonrpc/errors.js';

// Context and model
export { silentLogger } from './core/context.js';
export type { Awaitable, Logger, OutputLimits, RequestContext } from './core/context.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  Completion,
  CompletionArgument,
  CompletionContext,
  CompletionRef,
  ContentBlock,
  EmbeddedResource,
  Icon,
  ImageContent,
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
} from './core/model.js';

// Protocol facts
export { LEGACY_VERSIONS, MODERN_VERSIONS, SUPPORTED_VERSIONS } from './protocol/index.js';

// Not exported: the engine, the revision adapters and the connection
// internals. They are the seam between layers, not a stable API.
