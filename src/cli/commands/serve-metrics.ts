/**
 * `serve --metrics [HOST:]PORT`: the registry, the folder's hooks that
 * record into it (skill uses, reloads, git fetches), the gauges read from
 * the folder when scraped (skills served, the commit), and the listener.
 * The MCP metrics come from the server's observers (telemetry/operations.ts)
 * and the HTTP transport's own from `serveHttp`'s `metrics`.
 */
import type { Server } from '../../index.js';
import { type GitSkillsFolder, type SkillsFolder, usageNames } from '../../skills.js';
// Types only: the telemetry entry is imported when --metrics is given, so a serve without it loads none of it.
import type { Labels, MetricsRegistry, MetricsServer } from '../../telemetry.js';
import { hostPort } from '../args.js';
import type { FolderHooks } from '../context.js';

/** `--metrics`: a bare port is on 127.0.0.1, as for `--http`. */
export function metricsAddress(value: string | undefined): { host: string; port: number } | undefined {
  return value === undefined ? undefined : hostPort(value, '--metrics');
}

/** The registry, and the hooks the folder is loaded with. */
export async function folderMetrics(): Promise<{ registry: MetricsRegistry; hooks: FolderHooks }> {
  const { MetricsRegistry } = await import('../../telemetry.js');
  // A series per skill and surface: a catalogue of a few thousand skills stays under the cap.
  const registry = new MetricsRegistry({ maxSeries: 20_000 });
  const uses = registry.counter(
    'skillport_skill_uses_total',
    'Uses of each skill served, by surface: prompt (prompts/get), skill (skills/get), file (resources/read of its files), load_skill, read_skill_file.',
    ['skill', 'surface'],
  );
  const reloads = registry.counter(
    'skillport_catalogue_reloads_total',
    'Reloads of the catalogue from its folders, by outcome (ok, failed: the last good one stays).',
    ['outcome'],
  );
  const fetches = registry.counter('skillport_git_fetches_total', 'Fetches of the git source, by outcome (ok, failed: the last good commit stays).', [
    'outcome',
  ]);
  return {
    registry,
    hooks: {
      onUse: (skill, surface) => uses.add({ skill, surface }),
      onReload: (ok) => reloads.add({ outcome: ok ? 'ok' : 'failed' }),
      onFetch: (ok) => fetches.add({ outcome: ok ? 'ok' : 'failed' }),
    },
  };
}

/** Serves the registry with the server's MCP metrics and the folder's gauges. */
export async function startMetrics(
  server: Server,
  folder: SkillsFolder | GitSkillsFolder,
  registry: MetricsRegistry,
  address: { host: string; port: number },
): Promise<MetricsServer> {
  // Every skill served, used or not: `skillport usage` lists the ones never used from this.
  // Named as the uses are, by the one rule of skills/usage.ts.
  registry.gaugeOf('skillport_skill_info', 'Each skill, and each prompt of no skill (prompt files, shared references), served now: 1.', ['skill'], () =>
    usageNames(folder.catalogue).map((skill): [Labels, number] => [{ skill }, 1]),
  );
  registry.gaugeOf('skillport_catalogue_prompts', 'Prompts served now.', [], () => [[{}, folder.catalogue.prompts.length]]);
  if ('commit' in folder)
    registry.gaugeOf('skillport_git_commit_info', 'The commit of the git source served now, 1.', ['commit'], () => [[{ commit: folder.commit }, 1]]);
  const { serveMetrics } = await import('../../telemetry.js');
  return serveMetrics(server, { ...address, registry });
}
