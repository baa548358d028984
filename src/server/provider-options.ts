/**
 * What `createServer`'s `prompts`, `tools` and `resources` options may be: an
 * array of definitions, served as a fixed set (`staticPrompts`, `staticTools`,
 * `staticResources`), or a provider. Anything else is refused with the
 * option's name when the server is created: an array or a bare definition
 * handed over as a provider was called as one on the first request, which
 * answered -32603 "Internal error" and told the author nothing.
 */
import { type PromptDefinition, type PromptProvider, staticPrompts } from '../core/prompts.js';
import { type AnyResourceDefinition, type ResourceProvider, staticResources } from '../core/resources.js';
import { staticTools, type ToolDefinition, type ToolProvider } from '../core/tools.js';

/** The `prompts` option: definitions, or a provider. */
export type PromptsOption = PromptProvider | readonly PromptDefinition[];
/** The `tools` option: definitions, or a provider. */
export type ToolsOption = ToolProvider | readonly ToolDefinition[];
/** The `resources` option: resource and template definitions in one array, or a provider. */
export type ResourcesOption = ResourceProvider | readonly AnyResourceDefinition[];

type Fields = Record<string, unknown>;

/** What one option takes. */
interface OptionKind<P> {
  readonly option: string;
  /** The functions that make its definitions, for the messages. */
  readonly define: string;
  readonly provider: string;
  /** The methods every provider of this kind has (its interface's required ones). */
  readonly methods: readonly string[];
  isDefinition(value: Fields): boolean;
  serve(definitions: readonly never[]): P;
}

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

const PROMPTS: OptionKind<PromptProvider> = {
  option: 'prompts',
  define: 'definePrompt',
  provider: 'PromptProvider',
  methods: ['list', 'get'],
  isDefinition: (value) => isObject(value.prompt) && typeof value.get === 'function',
  serve: (definitions) => staticPrompts(definitions),
};

const TOOLS: OptionKind<ToolProvider> = {
  option: 'tools',
  define: 'defineTool',
  provider: 'ToolProvider',
  methods: ['list', 'call'],
  isDefinition: (value) => isObject(value.tool) && typeof value.call === 'function',
  serve: (definitions) => staticTools(definitions),
};

const RESOURCES: OptionKind<ResourceProvider> = {
  option: 'resources',
  define: 'defineResource or defineResourceTemplate',
  provider: 'ResourceProvider',
  methods: ['list', 'read'],
  isDefinition: (value) => (isObject(value.resource) || isObject(value.template)) && typeof value.read === 'function',
  serve: (definitions) => staticResources(definitions),
};

/**
 * The provider `value` stands for, or undefined when it is absent (null too,
 * as before: plain JavaScript passes it for "none"); throws a TypeError naming
 * the option otherwise.
 */
function providerOf<P>(value: unknown, kind: OptionKind<P>): P | undefined {
  if (value === undefined || value === null) return undefined;
  const wanted = `an array of ${kind.define} definitions or a ${kind.provider}`;
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => {
      if (!isObject(item) || !kind.isDefinition(item)) throw new TypeError(`createServer: ${kind.option}[${index}] is not a ${kind.define} definition`);
    });
    return kind.serve(value as never[]);
  }
  if (isObject(value) && kind.isDefinition(value)) {
    throw new TypeError(`createServer: ${kind.option} takes ${wanted}; put the one definition in an array: ${kind.option}: [definition]`);
  }
  if (isObject(value) && kind.methods.every((method) => typeof value[method] === 'function')) return value as P;
  throw new TypeError(`createServer: ${kind.option} must be ${wanted}`);
}

/** The providers of the three options that take definitions, checked. */
export function providersOf(options: { prompts?: PromptsOption | undefined; tools?: ToolsOption | undefined; resources?: ResourcesOption | undefined }): {
  prompts?: PromptProvider;
  tools?: ToolProvider;
  resources?: ResourceProvider;
} {
  const prompts = providerOf(options.prompts, PROMPTS);
  const tools = providerOf(options.tools, TOOLS);
  const resources = providerOf(options.resources, RESOURCES);
  return { ...(prompts && { prompts }), ...(tools && { tools }), ...(resources && { resources }) };
}
