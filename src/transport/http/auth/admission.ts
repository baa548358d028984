/** What the AuthGate (gate.ts) decides for a request. */
import type { Principal } from '../../../server/index.js';
import type { HttpReply } from '../request.js';

/** Admitted, with who the token names (none without OAuth), or refused with this answer. */
export type Admission = { readonly principal: Principal | undefined } | { readonly reply: HttpReply };

/** Admitted without a principal: one object for every such request, nothing made per request. */
export const ADMITTED: Admission = Object.freeze({ principal: undefined });
