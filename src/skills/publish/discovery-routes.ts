/**
 * The Agent Skills Discovery v0.2.0 index over HTTP: `GET` (and `HEAD`)
 * `/.well-known/agent-skills/index.json` and the artifacts it names under
 * the same folder (§URI Structure, §HTTP Considerations), as one prefix
 * route for the HTTP transport's `routes` option. The route is `authorized`:
 * it sits behind the MCP endpoint's token or OAuth, and each caller gets the
 * view of its audiences (publication.ts); a skill it may not use, or a path
 * that names nothing, is the same 404. Every answer carries a strong ETag of
 * its bytes' digest, and `If-None-Match` gets 304. Each request publishes the
 * folder's current catalogue, so the index follows reloads and git pulls.
 *
 * The skills layer does not import the transport: the route's request and
 * answer are declared here in the shape the transport's `RouteSpec` takes.
 */
import type { Principal } from '../../core/context.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import { formatIssue, type Issue } from '../load/issues.js';
import { type Artifact, Publication, StaleCatalogueError } from './publication.js';

/** §URI Structure: where the index and, conventionally, the artifacts are. */
export const DISCOVERY_PREFIX = '/.well-known/agent-skills/';
const INDEX = 'index.json';

/** The request a route of the HTTP transport gets (its `RouteRequest`), as far as this route reads it. */
export interface DiscoveryRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: { get(name: string): string | null };
  readonly principal?: Principal;
}

/** A route's answer (the transport's `RouteReply`). */
export interface DiscoveryReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

/** A prefix route behind the MCP endpoint's authorization (the transport's `RouteSpec`). */
export interface DiscoveryRoute {
  readonly answer: (request: DiscoveryRequest) => Promise<DiscoveryReply>;
  readonly access: 'authorized';
  readonly prefix: true;
}

/** What is published: a folder's current catalogue, reloaded when a file is found changed (a `SkillsFolder`). */
export interface PublishedFolder {
  readonly catalogue: Catalogue;
  reload?(): Promise<boolean>;
}

export interface DiscoveryOptions {
  /** A skill whose files add up to more is left out of the index (a finding). Default 64 MiB. */
  maxArchiveBytes?: number;
  /** Archive bytes kept between requests. Default 64 MiB. */
  maxCachedBytes?: number;
  /** Told once of each skill left out or cut (a name that is not valid, a description too long, an archive too large). */
  onIssue?: (issue: Issue) => void;
}

const TYPES = { index: 'application/json', 'skill-md': 'text/markdown; charset=utf-8', archive: 'application/gzip' } as const;
const TEXT = 'text/plain; charset=utf-8';
/** Findings remembered so each is told once, over reloads; past this many they are told again. */
const MAX_TOLD = 1000;

/**
 * The routes that publish `folder` as a discovery index, for the HTTP
 * transport's `routes` option.
 *
 * @example
 * const folder = await loadSkillsFolder(['./skills'], { watch: true });
 * await serveHttp(createServer({ name: 'skills', version: '1.0.0', ...folder }), { routes: discoveryRoutes(folder) });
 */
export function discoveryRoutes(folder: PublishedFolder, options: DiscoveryOptions = {}): Record<string, DiscoveryRoute> {
  const publish = publisher(folder, options);
  return { [DISCOVERY_PREFIX]: { access: 'authorized', prefix: true, answer: (request) => answer(publish, folder, request) } };
}

/** The publication of the folder's current catalogue, made again when the catalogue is replaced. */
function publisher(folder: PublishedFolder, options: DiscoveryOptions): () => Publication {
  const limits = { maxArchiveBytes: options.maxArchiveBytes ?? 64 * 1024 * 1024, maxCachedBytes: options.maxCachedBytes ?? 64 * 1024 * 1024 };
  for (const [name, value] of Object.entries(limits))
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
  const told = new Set<string>();
  const found = (issue: Issue): void => {
    const text = formatIssue(issue);
    if (told.has(text)) return;
    if (told.size >= MAX_TOLD) told.clear();
    told.add(text);
    options.onIssue?.(issue);
  };
  let current: { catalogue: Catalogue; publication: Publication } | undefined;
  return () => {
    const catalogue = folder.catalogue;
    if (current?.catalogue !== catalogue) current = { catalogue, publication: new Publication(catalogue, limits, found) };
    return current.publication;
  };
}

/** Answers one request under the prefix; a file found changed reloads the folder and is tried once more. */
async function answer(publish: () => Publication, folder: PublishedFolder, request: DiscoveryRequest): Promise<DiscoveryReply> {
  // §HTTP Considerations: GET and HEAD (the transport answers HEAD as GET without the body).
  if (request.method !== 'GET') return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': TEXT }, body: 'Method not allowed\n' };
  if (!request.path.startsWith(DISCOVERY_PREFIX)) return notFound();
  const rest = request.path.slice(DISCOVERY_PREFIX.length);
  for (let attempt = 0; ; attempt++) {
    try {
      return await serve(publish(), rest, request);
    } catch (error) {
      if (!(error instanceof StaleCatalogueError)) throw error;
      if (attempt > 0 || folder.reload === undefined) {
        return {
          status: 503,
          headers: { 'Retry-After': '1', 'Content-Type': TEXT, 'Cache-Control': 'no-store' },
          body: 'The skills are changing; try again\n',
        };
      }
      await folder.reload();
    }
  }
}

async function serve(publication: Publication, rest: string, request: DiscoveryRequest): Promise<DiscoveryReply> {
  const view = await publication.view(request.principal);
  if (rest === INDEX) return send(request, TYPES.index, view.digest, view.index);
  // Artifacts by the exact url the index gives them: anything else, encoded or not, names nothing.
  const artifact: Artifact | undefined = view.artifacts.get(rest);
  if (artifact === undefined) return notFound();
  // A validator that matches needs no bytes: an archive is not made again for a 304.
  const cached = notModified(request, artifact.digest);
  return cached ?? send(request, TYPES[artifact.type], artifact.digest, await artifact.bytes());
}

/** 404 for what does not exist and for what the caller may not use alike (as the MCP surfaces answer). */
function notFound(): DiscoveryReply {
  return { status: 404, headers: { 'Content-Type': TEXT, 'Cache-Control': 'no-store' }, body: 'Not found\n' };
}

/** The strong validator of bytes with this digest (RFC 9110 §8.8.3): their SHA-256. */
function etagOf(digest: string): string {
  return `"${digest.slice('sha256:'.length)}"`;
}

/**
 * What every answer says about caching (RFC 9111): stored, but revalidated
 * each time, since a reload may change any of it; a caller's own view is
 * `private` and varies with its token.
 */
function cacheHeaders(request: DiscoveryRequest, digest: string): Record<string, string> {
  const own = request.principal !== undefined;
  return {
    ETag: etagOf(digest),
    'Cache-Control': own ? 'private, no-cache' : 'no-cache',
    ...(own ? { Vary: 'Authorization' } : {}),
  };
}

/** 304 when `If-None-Match` names this validator or is `*` (RFC 9110 §13.1.2, weak comparison). */
function notModified(request: DiscoveryRequest, digest: string): DiscoveryReply | undefined {
  const header = request.headers.get('if-none-match');
  if (header === null) return undefined;
  const tag = etagOf(digest);
  const matches = header.split(',').some((given) => {
    const trimmed = given.trim();
    return trimmed === '*' || (trimmed.startsWith('W/') ? trimmed.slice(2) : trimmed) === tag;
  });
  return matches ? { status: 304, headers: cacheHeaders(request, digest) } : undefined;
}

function send(request: DiscoveryRequest, type: string, digest: string, bytes: Uint8Array): DiscoveryReply {
  return (
    notModified(request, digest) ?? {
      status: 200,
      // nosniff: a skill's text is untrusted and must never be taken for HTML by a browser.
      headers: { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', ...cacheHeaders(request, digest) },
      body: bytes,
    }
  );
}
