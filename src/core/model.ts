/**
 * The protocol-neutral model: what a prompt, a message, a resource and a
 * completion are, independent of any MCP revision. Revision adapters in
 * `protocol/` decide which of these fields a given revision may carry (for
 * example `icons` exist only from 2025-11-25 on) and drop the rest.
 */

/** Whether a tool may run as a task (2025-11-25 `Tool.execution.taskSupport`; absent: forbidden). core/tasks.ts runs them. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** Extra metadata attached to an object, passed through as `_meta`. */
export type Meta = Record<string, unknown>;

/** Who a message or content block is for. */
export type Role = 'user' | 'assistant';

/** An icon a client may show beside a prompt, resource or the server. */
export interface Icon {
  /** An https: or data: URI. */
  src: string;
  mimeType?: string;
  /** Sizes such as `"48x48"` or `"any"`. */
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** Hints about how a content block or resource is meant to be used. */
export interface Annotations {
  audience?: Role[];
  /** 0 (least important) to 1 (most important). */
  priority?: number;
  /** ISO 8601 timestamp. */
  lastModified?: string;
}

/** One argument a prompt accepts. Values always arrive as strings. */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as it appears in a listing. */
export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: 'image';
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface AudioContent {
  type: 'audio';
  /** Base64-encoded bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

/** A pointer to a resource the client may read or fetch itself. */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** A resource's contents carried inline in a message. */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

/** One block of message content. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** One message of a prompt. */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** What getting a prompt yields. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}

/** A resource as it appears in a listing. */
export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size of the raw content in bytes. */
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

/** A family of resources addressed by an RFC 6570 URI template. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  /** Only when every matching resource has this type. */
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64-encoded bytes. */
  blob: string;
  _meta?: Meta;
}

/** The contents of one resource: text or base64 bytes. */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/** What reading a resource yields; a directory-like resource may give several. */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
}

/** What a completion request points at: a prompt by name, or a resource (template) by URI. */
export type CompletionRef = { type: 'prompt'; name: string } | { type: 'resource'; uri: string };

/** The argument being completed and its partial value. */
export interface CompletionArgument {
  name: string;
  value: string;
}

/** Values already chosen for the other arguments. */
export interface CompletionContext {
  arguments: Record<string, string>;
}

/** Suggested values, best first. */
export interface Completion {
  values: string[];
  /** How many values exist in all, when known. */
  total?: number;
  /** True when more values exist than were returned. */
  hasMore?: boolean;
}

/** Identity of the server, shown by clients; `name` is the programmatic name. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** A JSON Schema object (2020-12 unless it names another dialect with `$schema`). */
export type JsonSchema = Record<string, unknown>;

/**
 * Hints about what a tool does. Untrusted by clients unless the server is:
 * they describe, they do not guarantee.
 */
export interface ToolAnnotations {
  title?: string;
  /** The tool does not change its environment. Default false. */
  readOnlyHint?: boolean;
  /** A change it makes may destroy something (meaningful when not read-only). Default true. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more. Default false. */
  idempotentHint?: boolean;
  /** It reaches an open world (the web, other systems), not a closed one. Default true. */
  openWorldHint?: boolean;
}

/** A tool as it appears in a listing. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  /** Always an object schema: a tool's arguments are named. */
  inputSchema: JsonSchema;
  /** When present, every successful call returns `structuredContent` that conforms to it. */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  /** Whether it may run as a task the client polls (core/tasks.ts); absent: never. */
  execution?: { taskSupport?: TaskSupport };
  _meta?: Meta;
}

/** What calling a tool yields. */
export interface CallToolResult {
  content: ContentBlock[];
  /** A JSON object, conforming to the tool's `outputSchema` when it has one. */
  structuredContent?: Record<string, unknown>;
  /** The tool ran and failed: the content says why, for the model to correct itself. */
  isError?: boolean;
  _meta?: Meta;
}
