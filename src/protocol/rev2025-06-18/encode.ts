/**
 * Neutral model -> wire objects. Each encoder copies only the fields the
 * target revision defines, so a field added in a later revision (such as
 * `icons`, new in 2025-11-25) never leaks into an older one. Later revisions
 * call these with a wider {@link Shape}.
 */
import type { Features } from '../../core/engine.js';
import type {
  Annotations,
  CallToolResult,
  ContentBlock,
  Icon,
  Prompt,
  PromptResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  ServerInfo,
  Tool,
} from '../../core/model.js';
import type { SkillEntry } from '../../core/skills.js';

/** Which optional parts of the model a revision carries. */
export interface Shape {
  /** `icons` on prompts, resources, templates, resource links and the implementation (2025-11-25+). */
  icons: boolean;
  /** `description` and `websiteUrl` on Implementation (2025-11-25+). */
  implementationDetails: boolean;
  /**
   * How a tool call with arguments its schema refuses is answered: a protocol
   * error (2025-06-18 server/tools §Error Handling: "Invalid arguments"), or a
   * result with `isError: true` (2025-11-25+: "Input validation errors", so
   * the model can correct itself).
   */
  toolArgumentErrors: 'protocol' | 'result';
  /** `execution.taskSupport` on tools (2025-11-25 only: the 2026-07-28 Tasks extension decides per call, SEP-2663). */
  toolExecution: boolean;
}

/** The 2025-06-18 shape. */
export const SHAPE_2025_06_18: Shape = { icons: false, implementationDetails: false, toolArgumentErrors: 'protocol', toolExecution: false };

type Wire = Record<string, unknown>;

function copy(source: object, target: Wire, keys: readonly string[]): Wire {
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined) target[key] = value;
  }
  return target;
}

function icons(list: Icon[] | undefined): Wire[] | undefined {
  return list?.map((icon) => copy(icon, {}, ['src', 'mimeType', 'sizes', 'theme']));
}

function annotations(value: Annotations | undefined): Wire | undefined {
  return value && copy(value, {}, ['audience', 'priority', 'lastModified']);
}

function withIcons(target: Wire, list: Icon[] | undefined, shape: Shape): Wire {
  if (shape.icons && list) target.icons = icons(list);
  return target;
}

export function encodePrompt(prompt: Prompt, shape: Shape): Wire {
  const wire = copy(prompt, { name: prompt.name }, ['title', 'description']);
  if (prompt.arguments) {
    wire.arguments = prompt.arguments.map((a) => copy(a, { name: a.name }, ['title', 'description', 'required']));
  }
  withIcons(wire, prompt.icons, shape);
  return copy(prompt, wire, ['_meta']);
}

export function encodeResource(resource: Resource, shape: Shape): Wire {
  const wire = copy(resource, { uri: resource.uri, name: resource.name }, ['title', 'description', 'mimeType', 'size']);
  const note = annotations(resource.annotations);
  if (note) wire.annotations = note;
  withIcons(wire, resource.icons, shape);
  return copy(resource, wire, ['_meta']);
}

export function encodeTemplate(template: ResourceTemplate, shape: Shape): Wire {
  const wire = copy(template, { uriTemplate: template.uriTemplate, name: template.name }, ['title', 'description', 'mimeType']);
  const note = annotations(template.annotations);
  if (note) wire.annotations = note;
  withIcons(wire, template.icons, shape);
  return copy(template, wire, ['_meta']);
}

export function encodeContents(contents: ResourceContents): Wire {
  return copy(contents, { uri: contents.uri }, ['mimeType', 'text', 'blob', '_meta']);
}

export function encodeContent(block: ContentBlock, shape: Shape): Wire {
  let wire: Wire;
  switch (block.type) {
    case 'text':
      wire = { type: 'text', text: block.text };
      break;
    case 'image':
    case 'audio':
      wire = { type: block.type, data: block.data, mimeType: block.mimeType };
      break;
    case 'resource_link':
      wire = { type: 'resource_link', ...encodeResource(block, shape) };
      break;
    case 'resource':
      wire = { type: 'resource', resource: encodeContents(block.resource) };
      break;
  }
  if (block.type !== 'resource_link') {
    const note = annotations(block.annotations);
    if (note) wire.annotations = note;
    copy(block, wire, ['_meta']);
  }
  return wire;
}

export function encodePromptResult(result: PromptResult, shape: Shape): Wire {
  const wire: Wire = {};
  if (result.description !== undefined) wire.description = result.description;
  wire.messages = result.messages.map((m) => ({ role: m.role, content: encodeContent(m.content, shape) }));
  return copy(result, wire, ['_meta']);
}

export function encodeTool(tool: Tool, shape: Shape): Wire {
  const wire = copy(tool, { name: tool.name }, ['title', 'description']);
  wire.inputSchema = tool.inputSchema;
  copy(tool, wire, ['outputSchema']);
  if (tool.annotations) wire.annotations = copy(tool.annotations, {}, ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);
  withIcons(wire, tool.icons, shape);
  const support = tool.execution?.taskSupport;
  if (shape.toolExecution && support !== undefined) wire.execution = { taskSupport: support };
  return copy(tool, wire, ['_meta']);
}

export function encodeToolResult(result: CallToolResult, shape: Shape): Wire {
  const wire: Wire = { content: result.content.map((block) => encodeContent(block, shape)) };
  return copy(result, wire, ['structuredContent', 'isError', '_meta']);
}

/**
 * A Skills-extension entry (SEP-2640 `Skill`): the frontmatter goes out
 * exactly as written, and `resources` is the complete manifest.
 */
export function encodeSkill(skill: SkillEntry): Wire {
  return {
    uri: skill.uri,
    frontmatter: skill.frontmatter,
    resources: skill.resources === 'dynamic' ? 'dynamic' : skill.resources.map((f) => ({ uri: f.uri, digest: f.digest, size: f.size })),
  };
}

export function encodeImplementation(info: ServerInfo, shape: Shape): Wire {
  const wire = copy(info, { name: info.name, version: info.version }, ['title']);
  if (shape.implementationDetails) copy(info, wire, ['description', 'websiteUrl']);
  return withIcons(wire, info.icons, shape);
}

/**
 * Server capabilities derived from the registered providers: nothing is
 * declared that is not served (2025-06-18 basic/lifecycle §Capability
 * Negotiation).
 */
export function encodeCapabilities(features: Features, extensions?: Record<string, Record<string, unknown>>): Wire {
  const capabilities: Wire = {};
  if (features.logging) capabilities.logging = {};
  if (features.completions) capabilities.completions = {};
  if (features.prompts) capabilities.prompts = features.prompts.listChanged ? { listChanged: true } : {};
  if (features.tools) capabilities.tools = features.tools.listChanged ? { listChanged: true } : {};
  if (features.resources) {
    const resources: Wire = {};
    if (features.resources.subscribe) resources.subscribe = true;
    if (features.resources.listChanged) resources.listChanged = true;
    capabilities.resources = resources;
  }
  if (extensions && Object.keys(extensions).length > 0) capabilities.extensions = extensions;
  return capabilities;
}
