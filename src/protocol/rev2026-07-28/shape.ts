/**
 * What 2026-07-28 carries of the shared encoders' optional parts: all of
 * 2025-11-25's but `execution` on tools, which the Tasks extension replaced
 * with a decision per call (SEP-2663 §Capability Negotiation).
 */
import { SHAPE_2025_11_25, type Shape } from '../rev2025-11-25/index.js';

export const SHAPE: Shape = Object.freeze({ ...SHAPE_2025_11_25, toolExecution: false });
