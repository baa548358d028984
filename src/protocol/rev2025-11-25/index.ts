/**
 * MCP revision 2025-11-25: 2025-06-18 plus icons on prompts, resources,
 * templates, resource links and the implementation, and `description` /
 * `websiteUrl` on the implementation (2025-11-25 changelog).
 */
import { encodeError, inputRequestWith, LEGACY_LANES, legacyEvent, legacyHandlers, requestEvent, type Shape } from '../rev2025-06-18/index.js';
import type { Revision } from '../revision.js';

export const VERSION = '2025-11-25';

/** The 2025-11-25 shape, which 2026-07-28 keeps. */
export const SHAPE_2025_11_25: Shape = { icons: true, implementationDetails: true, toolArgumentErrors: 'result' };

export const revision: Revision = {
  version: VERSION,
  methods: legacyHandlers(SHAPE_2025_11_25),
  lanes: LEGACY_LANES,
  encodeError,
  encodeEvent: legacyEvent,
  encodeRequestEvent: requestEvent,
  resumption: 'polling',
  encodeInputRequest: inputRequestWith(true),
};

// What 2026-07-28 builds on, passed through so it imports only this revision.
export {
  encodeCapabilities,
  encodeErrorWith,
  encodeImplementation,
  LEGACY_LANES,
  optionalObject,
  requestEvent,
  requireLogLevel,
  type Shape,
  sharedHandlers,
} from '../rev2025-06-18/index.js';
