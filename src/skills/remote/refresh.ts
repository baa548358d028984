/**
 * One fetch of a discovery index (index-source.ts): the index read with
 * `If-None-Match`, each skill whose digest is new fetched and verified
 * (artifacts.ts), the others kept as they are (RFC "Integrity and
 * Verification": a digest that matches the cached one need not be fetched
 * again), the catalogue built from the folders, then swapped in whole.
 */
import { rm } from 'node:fs/promises';
import type { Logger } from '../../core/context.js';
import { buildCatalogue, type Catalogue } from '../catalogue/catalogue.js';
import type { Issue } from '../load/issues.js';
import type { SkillsFolderOptions, SwappableFolder } from '../provider.js';
import type { Artifact } from './artifacts.js';
import { type GetLimits, httpGet } from './http-get.js';
import { type IndexEntry, type IndexSpec, parseIndex } from './index-document.js';

/** Largest index read: 5,000 entries of a few hundred bytes each fit with room to spare. */
const MAX_INDEX_BYTES = 8 * 1024 * 1024;

/** What a source keeps between fetches. */
export interface SourceState {
  readonly spec: IndexSpec;
  /** This process's folder of artifacts. */
  readonly dir: string;
  readonly logger: Logger;
  readonly catalogueOptions: SkillsFolderOptions;
  readonly get: GetLimits;
  /** Bytes of all skills' files together. */
  readonly maxTotal: number;
  /** Fetches, verifies and writes one skill (artifacts.ts `fetchArtifact`), as the `n`th folder. */
  readonly fetch: (entry: IndexEntry, n: number) => Promise<Artifact>;
  /** The artifacts served now, by skill name, in the index's order. */
  served: Map<string, Artifact>;
  /** Those served before: their folders stay until the next swap, for reads begun before this one. */
  previous: Map<string, Artifact>;
  catalogue: Catalogue | undefined;
  /** The index's findings the catalogue served now was built with. */
  findings: readonly Issue[];
  /** The ETag of the index served now; none after a fetch in which a skill failed, so the next one tries it again. */
  etag: string | undefined;
  lastFailure: string | undefined;
  /** Folders made so far: each artifact's folder is new. */
  made: number;
  closed: boolean;
  /** The folder serving the catalogue, once the first one is built. */
  folder: SwappableFolder | undefined;
}

/** Removes the folders of `artifacts` but those `kept` serves. */
async function retire(artifacts: Iterable<Artifact>, ...kept: ReadonlyArray<ReadonlyMap<string, Artifact>>): Promise<void> {
  const keep = new Set(kept.flatMap((map) => [...map.values()]));
  for (const artifact of artifacts) if (!keep.has(artifact)) await rm(artifact.holder, { recursive: true, force: true });
}

function sameArtifacts(a: ReadonlyMap<string, Artifact>, b: ReadonlyMap<string, Artifact>): boolean {
  const [x, y] = [[...a.values()], [...b.values()]];
  return x.length === y.length && x.every((artifact, i) => artifact === y[i]);
}

/** Downloads at once at most this many artifacts: an index of hundreds of skills should not take hundreds of round trips in a row. */
const PARALLEL = 4;

/** Each entry's new artifact (or why it failed); undefined for an entry whose digest is the one served. */
async function download(state: SourceState, entries: readonly IndexEntry[]): Promise<Array<Artifact | Error | undefined>> {
  const results: Array<Artifact | Error | undefined> = new Array(entries.length).fill(undefined);
  let next = 0;
  const worker = async () => {
    while (next < entries.length && !state.closed) {
      const at = next++;
      const entry = entries[at] as IndexEntry;
      if (state.served.get(entry.name)?.sha256 === entry.sha256) continue;
      results[at] = await state.fetch(entry, ++state.made).catch((error: Error) => error);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}

/** The artifact of each entry: the one served when its digest is the same, else fetched; a failure keeps the last good one, with a finding. */
async function artifactsOf(
  state: SourceState,
  entries: readonly IndexEntry[],
  issues: Issue[],
): Promise<{ next: Map<string, Artifact>; made: Artifact[]; failed: boolean }> {
  const fetched = await download(state, entries);
  const made = fetched.filter((a): a is Artifact => a !== undefined && !(a instanceof Error));
  const next = new Map<string, Artifact>();
  let failed = false;
  let total = 0;
  for (const [at, entry] of entries.entries()) {
    const kept = state.served.get(entry.name);
    const got = fetched[at];
    let artifact = got === undefined ? kept : got;
    if (artifact instanceof Error) {
      failed = true;
      const still = kept === undefined ? 'is not served' : 'keeps its last good version';
      issues.push({ severity: 'error', code: 'artifact_refused', path: entry.name, message: `The skill "${entry.name}" ${still}: ${artifact.message}` });
      artifact = kept;
    }
    if (artifact === undefined) continue;
    if (total + artifact.bytes > state.maxTotal) {
      issues.push({
        severity: 'error',
        code: 'too_large',
        path: entry.name,
        message: `The skill "${entry.name}" is not served: the skills before it fill maxCheckoutBytes (${state.maxTotal})`,
      });
      continue;
    }
    total += artifact.bytes;
    next.set(entry.name, artifact);
  }
  // What was fetched and is not served (past the size cap, or the source closed meanwhile) goes now.
  await retire(made, next);
  return { next, made: made.filter((a) => next.get(a.name) === a), failed };
}

/** Fetches the index once; resolves whether a new catalogue is served. Throws (keeping what is served) when the index cannot be used. */
export async function refresh(state: SourceState): Promise<boolean> {
  const got = await httpGet(state.spec.url, { ...state.get, maxBytes: Math.min(state.get.maxBytes, MAX_INDEX_BYTES) }, state.etag);
  if (got.status === 304 || state.closed) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(got.bytes);
  } catch {
    throw new Error('the index is not UTF-8');
  }
  const { entries, issues } = parseIndex(text, got.url, state.get.allowed);
  const { next, made, failed } = await artifactsOf(state, entries, issues);
  let catalogue: Catalogue;
  try {
    catalogue = await buildCatalogue(
      [...next.values()].map((a) => a.dir),
      { ...state.catalogueOptions, findings: issues },
    );
  } catch (error) {
    await retire(made);
    throw error;
  }
  if (state.closed) {
    await retire(made);
    return false;
  }
  state.etag = failed ? undefined : got.etag;
  if (state.catalogue !== undefined && sameArtifacts(state.served, next) && JSON.stringify(issues) === JSON.stringify(state.findings)) return false;
  const retired = state.previous;
  state.previous = state.served;
  state.served = next;
  state.catalogue = catalogue;
  state.findings = issues;
  state.folder?.swap(catalogue);
  await retire(retired.values(), state.served, state.previous);
  if (state.folder !== undefined) state.logger.info(`Serving ${state.spec.display} anew: ${catalogue.skills.length} skills`);
  return true;
}
