/**
 * A discovery index source as written (`https://example.com`, or the URL of
 * an `index.json`) and the index document it serves, read by the Agent
 * Skills Discovery RFC v0.2.0: "Discovery Index" (`$schema`, the entries and
 * their fields), "URL Resolution" (RFC 3986 §5 against the index URL) and
 * "Integrity and Verification" (`sha256:` and 64 lowercase hex).
 */
import { createHash } from 'node:crypto';
import { redactCredentials } from '../git/spec.js';
import type { Issue } from '../load/issues.js';

/** The one index schema this reader knows (RFC "Versioning": an opaque identifier, matched exactly). */
export const INDEX_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** Where an index lives under a base URL (RFC 8615 well-known URI, RFC "Discovery Index"). */
export const INDEX_PATH = '.well-known/agent-skills/index.json';

/** A parsed index source. */
export interface IndexSpec {
  /** The index's URL, without user or password. */
  readonly url: URL;
  /** The URL as it may be shown: credentials replaced by `***`. */
  readonly display: string;
  /** `Authorization` for the index's origin, from the URL's user and password (HTTP Basic, RFC 7617). */
  readonly authorization: string | undefined;
  /** A digest of the index URL: the cache folder's name. */
  readonly key: string;
}

/** Whether a command-line source is an index URL (`http:` or `https:`); git sources take `git+https:`. */
export function isIndexSource(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Whether `host` (a URL's hostname) is this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Parses `source`. Plain `http:` is refused but for loopback (tests, a local
 * skillport) unless `allowHttp`: the digests that vouch for each artifact
 * come in the index itself, so whoever can alter the index in transit can
 * alter them too, and only TLS keeps them honest.
 */
export function parseIndexSpec(source: string, allowHttp = false): IndexSpec {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new TypeError(`not a valid URL: ${redactCredentials(source)}`);
  }
  const display = redactCredentials(url.href);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`an index URL is https: or http:, not ${url.protocol} (${display})`);
  if (url.protocol === 'http:' && !allowHttp && !isLoopback(url.hostname)) {
    throw new TypeError(`plain http is read only from this machine (127.0.0.1, localhost); use https, or allow it explicitly: ${display}`);
  }
  const authorization =
    url.username === '' && url.password === ''
      ? undefined
      : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  url.username = '';
  url.password = '';
  url.hash = '';
  // A marketplace names plugins by paths inside its repository, which a URL alone cannot serve.
  if (url.pathname.endsWith('/marketplace.json')) {
    throw new TypeError(`a plugin marketplace is served from its folder or git repository (git+https://…), not from the URL of marketplace.json: ${display}`);
  }
  // A URL naming the index itself is taken as is; any other is the base the well-known path goes under.
  if (!url.pathname.endsWith('/index.json')) url = new URL(INDEX_PATH, url.pathname.endsWith('/') ? url : new URL(`${url.href}/`));
  return { url, display: redactCredentials(new URL(url).href), authorization, key: createHash('sha256').update(url.href).digest('hex').slice(0, 16) };
}

/** One skill of an index, checked. */
export interface IndexEntry {
  name: string;
  type: 'skill-md' | 'archive';
  /** The artifact's URL, resolved against the index URL. */
  url: URL;
  /** 64 lowercase hex digits (the `sha256:` taken off). */
  sha256: string;
}

const NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
const DIGEST = /^sha256:([0-9a-f]{64})$/;
/** Entries read from one index; past it, the rest are a finding. */
const MAX_SKILLS = 5000;

/** The entries of index `text` fetched from `spec`; `mayFetch` says why an artifact URL may not be fetched. Throws when the index cannot be used at all. */
export function parseIndex(text: string, base: URL, mayFetch: (url: URL) => string | undefined): { entries: IndexEntry[]; issues: Issue[] } {
  let doc: { $schema?: unknown; skills?: unknown };
  try {
    doc = JSON.parse(text) as typeof doc;
  } catch (error) {
    throw new Error(`the index is not JSON: ${(error as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null) throw new Error('the index is not a JSON object');
  // RFC "Versioning": an unknown $schema SHOULD NOT be processed; none means v0.1.0, whose entries carry no digest to verify.
  if (doc.$schema === undefined) throw new Error('the index has no $schema (a v0.1.0 index, whose files carry no digests, is not read)');
  if (doc.$schema !== INDEX_SCHEMA)
    throw new Error(`the index's $schema ${JSON.stringify(doc.$schema).slice(0, 200)} is not one this server reads (${INDEX_SCHEMA})`);
  if (!Array.isArray(doc.skills)) throw new Error('the index has no "skills" list');
  const issues: Issue[] = [];
  const entries: IndexEntry[] = [];
  const names = new Set<string>();
  const skip = (code: string, at: number, message: string) => issues.push({ severity: 'error', code, path: `skills[${at}]`, message });
  for (const [at, raw] of (doc.skills as unknown[]).slice(0, MAX_SKILLS).entries()) {
    const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const { name, type, url, digest } = entry;
    if (typeof name !== 'string' || !NAME.test(name)) {
      skip('invalid_name', at, 'Not served: a skill name is 1-64 of a-z, 0-9 and single hyphens');
      continue;
    }
    if (type !== 'skill-md' && type !== 'archive') {
      // RFC "URL Resolution": an unrecognised type SHOULD be skipped, MAY be warned of.
      issues.push({
        severity: 'warning',
        code: 'unknown_type',
        path: `skills[${at}]`,
        message: `The skill "${name}" has type ${JSON.stringify(type)}; only skill-md and archive are read`,
      });
      continue;
    }
    const sha = typeof digest === 'string' ? DIGEST.exec(digest)?.[1] : undefined;
    if (sha === undefined) {
      skip('invalid_digest', at, `The skill "${name}" is not served: its digest is not sha256: and 64 lowercase hex digits`);
      continue;
    }
    let resolved: URL | undefined;
    try {
      resolved = typeof url === 'string' ? new URL(url, base) : undefined;
    } catch {}
    const refused = resolved === undefined ? 'it is not a URL' : mayFetch(resolved);
    if (resolved === undefined || refused !== undefined) {
      skip('url_refused', at, `The skill "${name}" is not served: its url ${redactCredentials(String(url)).slice(0, 300)}: ${refused}`);
      continue;
    }
    if (names.has(name)) {
      skip('duplicate_name', at, `The skill "${name}" is listed twice; the first is served`);
      continue;
    }
    names.add(name);
    entries.push({ name, type, url: resolved, sha256: sha });
  }
  if (doc.skills.length > MAX_SKILLS)
    issues.push({ severity: 'error', code: 'too_many_skills', path: 'skills', message: `Only the first ${MAX_SKILLS} skills are read` });
  return { entries, issues };
}
