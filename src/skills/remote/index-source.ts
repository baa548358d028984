/**
 * A skills folder served from an Agent Skills discovery index
 * (`/.well-known/agent-skills/index.json`, RFC v0.2.0), kept as a git source
 * keeps a repository (git/source.ts): each skill's artifact verified and
 * written into a folder of its own under the cache folder, the catalogue
 * built from those folders and swapped whole, the index fetched again every
 * `pullIntervalMs` with `If-None-Match` (a 304 costs nothing). A skill whose
 * artifact fails (a digest that does not match, an archive refused, a
 * download that fails) is left out with a finding naming it, or, on a
 * refresh, keeps its last good version; a refresh that fails as a whole (the
 * network, the index's JSON or `$schema`) keeps the last good catalogue and
 * is logged once per reason. Artifacts are fetched only from the index's
 * origin and the origins allowed: an index must not make the server fetch
 * arbitrary hosts (server-side request forgery into the network it runs in).
 */
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../core/context.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { createOwnedFolder } from '../git/workspace.js';
import { DEFAULT_LIMITS } from '../load/scan.js';
import { createPoller } from '../poll.js';
import { type SkillsFolder, type SkillsFolderOptions, servedFolder } from '../provider.js';
import { type Artifact, fetchArtifact } from './artifacts.js';
import { type IndexSpec, isLoopback, parseIndexSpec } from './index-document.js';
import { refresh, type SourceState } from './refresh.js';

/** Options of {@link loadIndexSkills}. */
export interface IndexSkillsOptions extends Omit<SkillsFolderOptions, 'watch' | 'debounceMs'> {
  /** Where verified artifacts are kept. Default `~/.cache/skillport/index`. */
  cacheDir?: string;
  /** Fetch the index this often, in ms; 0 only when {@link IndexSkillsFolder.sync} is called. Default 60000. */
  pullIntervalMs?: number;
  /** Longest one download may take, in ms. Default 30000. */
  timeoutMs?: number;
  /** Origins besides the index's own that artifacts may be fetched from (`https://cdn.example.com`). */
  allowOrigins?: readonly string[];
  /** Read plain `http:` from hosts other than this machine. Default false. */
  allowHttp?: boolean;
  /** Bytes of one artifact (and of the index) downloaded. Default 64 MiB. */
  maxArtifactBytes?: number;
  /** Bytes of all skills' files together, unpacked. Default 256 MiB. */
  maxCheckoutBytes?: number;
  /** Told of each fetch of the index: true when it succeeded, false when it failed. For metrics. */
  onFetch?: (ok: boolean) => void;
}

/** What one fetch of the index found. */
export interface IndexSyncResult {
  /** Whether a new catalogue is now served. */
  changed: boolean;
}

/** A skills folder served from a discovery index, with a way to fetch now. */
export interface IndexSkillsFolder extends SkillsFolder {
  /** The index URL as it may be shown: credentials replaced by `***`. */
  readonly source: string;
  /** Fetches the index now; rejects (after logging) when it fails, and the last good catalogue stays. */
  sync(): Promise<IndexSyncResult>;
  /** Stops fetching and removes the artifacts. */
  close(): Promise<void>;
}

const DEFAULT_MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_CHECKOUT_BYTES = 256 * 1024 * 1024;

/** Why `url` may not be fetched for `spec`, or undefined: the index's origin and the allowed ones only, over https (or http on loopback, or allowed). */
function originRule(spec: IndexSpec, options: IndexSkillsOptions): (url: URL) => string | undefined {
  const allowed = new Set([spec.url.origin, ...(options.allowOrigins ?? []).map((o) => new URL(o).origin)]);
  return (url) => {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return `only https and http are fetched, not ${url.protocol}`;
    if (url.protocol === 'http:' && !options.allowHttp && !isLoopback(url.hostname)) return 'plain http is read only from this machine';
    if (url.username !== '' || url.password !== '') return 'a URL with a user or password is not fetched';
    if (!allowed.has(url.origin)) return `${url.origin} is not the index's origin (${spec.url.origin}) nor one allowed`;
    return undefined;
  };
}

/** The state of a new source, before its first fetch. */
async function newState(spec: IndexSpec, options: IndexSkillsOptions): Promise<SourceState> {
  const maxArtifact = options.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES;
  const maxTotal = options.maxCheckoutBytes ?? DEFAULT_MAX_CHECKOUT_BYTES;
  for (const [key, value] of [
    ['maxArtifactBytes', maxArtifact],
    ['maxCheckoutBytes', maxTotal],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new TypeError(`${key} must be a positive whole number of bytes`);
  }
  const allowed = originRule(spec, options);
  const get = {
    maxBytes: maxArtifact,
    timeoutMs: options.timeoutMs ?? 30_000,
    allowed,
    ...(spec.authorization !== undefined ? { headers: { origin: spec.url.origin, values: { authorization: spec.authorization } } } : {}),
  };
  const maxFileBytes = options.limits?.maxFileBytes ?? (DEFAULT_LIMITS.maxFileBytes as number);
  const dir = await createOwnedFolder(join(options.cacheDir ?? join(homedir(), '.cache', 'skillport', 'index'), spec.key));
  return {
    spec,
    dir,
    logger: options.logger ?? silentLogger,
    catalogueOptions: options,
    get,
    maxTotal,
    fetch: (entry, n) => fetchArtifact(entry, dir, n, { get, archive: { maxBytes: Math.min(maxTotal, 64 * 1024 * 1024), maxFileBytes, maxEntries: 10_000 } }),
    served: new Map<string, Artifact>(),
    previous: new Map<string, Artifact>(),
    catalogue: undefined,
    findings: [],
    etag: undefined,
    lastFailure: undefined,
    made: 0,
    closed: false,
    folder: undefined,
  };
}

/**
 * Serves the skills of a discovery index: `source` is a base URL
 * (`https://example.com`, whose `/.well-known/agent-skills/index.json` is
 * read) or the URL of an `index.json`. Throws when the index cannot be read
 * the first time; a skill that fails is left out with a finding.
 *
 * @example
 * const folder = await loadIndexSkills('https://example.com');
 * const server = createServer({ name: 'skills', version: '1.0.0', ...folder });
 */
export async function loadIndexSkills(source: string, options: IndexSkillsOptions = {}): Promise<IndexSkillsFolder> {
  const spec = parseIndexSpec(source, options.allowHttp);
  const interval = options.pullIntervalMs ?? 60_000;
  if (!Number.isFinite(interval) || interval < 0) throw new TypeError('pullIntervalMs must be 0 or more');
  const state = await newState(spec, options);
  let first: Catalogue;
  try {
    await refresh(state);
    first = state.catalogue as Catalogue;
  } catch (error) {
    await rm(state.dir, { recursive: true, force: true });
    throw new Error(`cannot load ${spec.display}: ${(error as Error).message}`);
  }
  state.logger.info(`Serving ${spec.display}: ${first.skills.length} skills`);
  // A reload reads the folders served at that moment, with the index's findings.
  const served = {
    ...options,
    prefix: options.prefix ?? 'index',
    watch: false,
    // Read at each rebuild: a reload keeps the index's findings of the folders it reads.
    get findings() {
      return state.findings;
    },
  };
  const folder = await servedFolder(() => [...state.served.values()].map((a) => a.dir), first, served);
  state.folder = folder;
  const poller = createPoller(() => logged(state, options.onFetch), interval);
  return {
    prompts: folder.prompts,
    resources: folder.resources,
    skills: folder.skills,
    ...(folder.tools ? { tools: folder.tools } : {}),
    instructions: folder.instructions,
    get catalogue() {
      return folder.catalogue;
    },
    source: spec.display,
    reload: () => folder.reload(),
    sync: () => poller.sync(),
    async close() {
      state.closed = true;
      // A refresh in flight ends first: removing the folders it writes into under it can fail (ENOTEMPTY).
      await poller.stop();
      folder.close();
      await rm(state.dir, { recursive: true, force: true });
    },
  };
}

/** A refresh, its failure logged once per distinct reason. */
async function logged(state: SourceState, onFetch: ((ok: boolean) => void) | undefined): Promise<IndexSyncResult> {
  try {
    const changed = await refresh(state);
    state.lastFailure = undefined;
    onFetch?.(true);
    return { changed };
  } catch (error) {
    const message = (error as Error).message;
    // Once per distinct reason: an index down for an hour is one warning, not sixty.
    if (message !== state.lastFailure) state.logger.warn(`Fetching ${state.spec.display} failed; still serving the last good skills: ${message}`);
    else state.logger.debug(`Fetching ${state.spec.display} failed again: ${message}`);
    state.lastFailure = message;
    onFetch?.(false);
    throw error;
  }
}
