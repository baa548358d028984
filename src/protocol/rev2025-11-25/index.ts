/**
 * MCP revision 2025-11-25: 2025-06-18 plus icons on prompts, resources,
 * templates, resource links and the implementation, and `description` /
 * `websiteUrl` on the implementation (2025-11-25 changelog).
 */
import { encodeError, inputRequestWith, LEGACY_LANES, legacyEvent, legacyHandlers, requestEvent, type Shape } from '../rev2025-06-18/index.js';
import type { Revision } from '../revision.js';
import { addTasks } from './tasks.js';

export const VERSION = '2025-11-25';

/** The 2025-11-25 shape, which 2026-07-28 keeps. */
export const SHAPE_2025_11_25: Shape = { icons: true, implementationDetails: true, toolArgumentErrors: 'result', toolExecution: true };

const methods = legacyHandlers(SHAPE_2025_11_25);
addTasks(methods, SHAPE_2025_11_25, () => revision);

export const revision: Revision = {
  version: VERSION,
  methods,
  lanes: LEGACY_LANES,
  encodeError,
  encodeEvent: legacyEvent,
  encodeRequestEvent: requestEvent,
  resumption: 'polling',
  encodeInputRequest: inputRequestWith(true),
};

export {
  encodeCapabilities,
  encodeErrorWith,
  encodeImplementation,
  encodeToolResult,
  LEGACY_LANES,
  optionalObject,
  requestEvent,
  requireLogLevel,
  requireString,
  type Shape,
  sharedHandlers,
} from '../rev2025-06-18/index.js';
// What 2026-07-28 builds on, passed through so it imports only this revision.
export { encodeTask, findTask, startToolTask, type TaskWording } from './tasks.js';
