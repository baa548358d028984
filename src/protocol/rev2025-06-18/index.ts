/**
 * MCP revision 2025-06-18: the initialize handshake, no icons, -32002 for a
 * missing resource.
 */
import type { Revision } from '../revision.js';
import { SHAPE_2025_06_18 } from './encode.js';
import { encodeError } from './errors.js';
import { inputRequestWith, legacyEvent, requestEvent } from './events.js';
import { LEGACY_LANES, legacyHandlers } from './registry.js';

export const VERSION = '2025-06-18';

export const revision: Revision = {
  version: VERSION,
  methods: legacyHandlers(SHAPE_2025_06_18),
  lanes: LEGACY_LANES,
  encodeError,
  encodeEvent: legacyEvent,
  encodeRequestEvent: requestEvent,
  resumption: 'ids',
  encodeInputRequest: inputRequestWith(false),
};

// What later revisions build on.
export { decodeCompletion, optionalObject, optionalString, requireString, stringMap } from './decode.js';
export {
  encodeCapabilities,
  encodeContent,
  encodeContents,
  encodeImplementation,
  encodePrompt,
  encodePromptResult,
  encodeResource,
  encodeTemplate,
  encodeToolResult,
  type Shape,
} from './encode.js';
export { encodeError, encodeErrorWith } from './errors.js';
export { inputRequestWith, legacyEvent, requestEvent } from './events.js';
export { LEGACY_LANES, legacyHandlers, refusal, requireLogLevel, sharedHandlers } from './registry.js';
