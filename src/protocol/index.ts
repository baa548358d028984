/**
 * The protocol layer as the layers above see it: the revisions served, the
 * resolver that decides each message, and the revision contract.
 */

export { type ResolveContext, type Resolved, resolve, type Scope, sessionVersionRefused, versionHeader } from './resolve.js';
export type {
  CachePolicy,
  HeaderReader,
  HttpBinding,
  InputBroker,
  Lane,
  LegacySession,
  MethodContext,
  MethodHandler,
  RequestFacts,
  Revision,
  ServerDescription,
  Wire,
} from './revision.js';
// A session revision by its version, for a session restored from data (server/snapshot.ts).
export { LEGACY_VERSIONS, META_KEYS, MODERN_VERSIONS, SUPPORTED_VERSIONS, sessionRevisionFor } from './revisions.js';
