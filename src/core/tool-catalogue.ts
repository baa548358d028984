/**
 * The engine's tools: the catalogue, built once per change of the provider,
 * its pages, and calls checked against it before the provider runs. Without
 * a provider the catalogue is empty; whether the server serves tools at all
 * is the revision's to answer.
 */
import type { Encoded } from '../jsonrpc/encoded.js';
import { InvalidParamsError } from '../jsonrpc/errors.js';
import { audienceKey, perCaller } from './audience.js';
import { namedCatalogue } from './cached.js';
import { type Principal, type RequestContext, throwIfCancelled } from './context.js';
import type { CallToolResult, TaskSupport, Tool } from './model.js';
import { createPager, type Page } from './paginate.js';
import { type MirroredParam, mirroredParams } from './tool-headers.js';
import type { ToolProvider } from './tools.js';

export interface ToolOperations {
  /** The tools, as `principal` sees them when the provider lists per caller (`listFor`). */
  listTools(cursor: string | undefined, principal?: Principal): Promise<Encoded<Page<Tool>>>;
  /** `prepared`: what {@link prepareTool} returned, for a call that runs as a task. */
  callTool(name: string, args: Record<string, unknown>, ctx: RequestContext, prepared?: unknown): Promise<CallToolResult>;
  /** Checks a task-supporting tool's arguments and runs its `prepare`, in the request, before its task starts. */
  prepareTool(name: string, args: Record<string, unknown>, ctx: RequestContext): Promise<unknown>;
  /** Whether tool `name` may run as a task; undefined for an unknown tool (its call fails as unknown). */
  taskSupport(name: string): Promise<TaskSupport | undefined>;
  /** The whole catalogue, e.g. for a CLI listing. */
  tools(): Promise<readonly Tool[]>;
  /** The parameters tool `name` mirrors into HTTP headers (`x-mcp-header`); none for an unknown tool. */
  mirroredParams(name: string): Promise<readonly MirroredParam[]>;
}

/**
 * Operations over `provider` (none: an empty catalogue). `changed` runs
 * when the provider reports a change, after the catalogue was dropped; the
 * returned function stops watching.
 */
export function toolOperations(provider: ToolProvider | undefined, pageSize: number, changed: () => void): ToolOperations & { stop(): void } {
  const pages = createPager(pageSize);
  const catalogue = namedCatalogue(provider && (() => provider.list()));
  const stop = provider?.watch?.(() => {
    catalogue.invalidate();
    changed();
  });

  // Read from each tool's schema once per catalogue: the catalogue object is the same until a change.
  let mirroredOf: { catalogue: object; byName: Map<string, readonly MirroredParam[]> } | undefined;

  /** The provider, once `name` is known to its catalogue (server/tools §Error Handling: an unknown tool is -32602). */
  async function providerOf(name: string): Promise<ToolProvider> {
    if (!provider || !(await catalogue.get()).byName.has(name)) throw new InvalidParamsError(`Unknown tool: "${name}"`, { name });
    return provider;
  }

  return {
    async listTools(cursor, principal) {
      // A provider whose listing depends on the caller (a description naming what it may use).
      const own = principal && (await provider?.listFor?.(principal));
      if (principal && own) return perCaller(pages.page(own, cursor, audienceKey(principal)));
      return pages.page((await catalogue.get()).list, cursor);
    },
    tools: async () => (await catalogue.get()).list,
    async mirroredParams(name) {
      if (!provider) return [];
      const current = await catalogue.get();
      if (mirroredOf?.catalogue !== current) mirroredOf = { catalogue: current, byName: new Map() };
      let params = mirroredOf.byName.get(name);
      if (!params) {
        const tool = current.byName.get(name);
        params = tool ? mirroredParams(tool.inputSchema).params : [];
        if (tool) mirroredOf.byName.set(name, params);
      }
      return params;
    },
    async callTool(name, args, ctx, prepared) {
      const known = await providerOf(name);
      // A request cancelled while the catalogue was loading never reaches the tool.
      throwIfCancelled(ctx);
      return known.call(name, args, ctx, prepared);
    },
    async prepareTool(name, args, ctx) {
      const known = await providerOf(name);
      throwIfCancelled(ctx);
      return known.prepare?.(name, args, ctx);
    },
    async taskSupport(name) {
      const tool = provider && (await catalogue.get()).byName.get(name);
      return tool ? (tool.execution?.taskSupport ?? 'forbidden') : undefined;
    },
    stop: () => stop?.(),
  };
}
