/** The options of skillport as an OAuth 2.1 resource server (`oauth` of the HTTP options). */

export interface OAuthOptions {
  /**
   * The issuer identifier of the authorization server that issues this
   * server's tokens (its `iss`). Its metadata (RFC 8414, or OpenID Connect
   * Discovery) names the keys and endpoints used.
   */
  issuer: string;
  /**
   * The audience (`aud`) a token must name. Default: this endpoint's URL as
   * requested, e.g. `https://skills.example.com/mcp` (RFC 8707), which is
   * what MCP clients ask tokens for. An http(s) URL here is also the
   * endpoint's canonical URL in the metadata document and the challenge: set
   * it to the public URL behind a proxy that terminates TLS.
   */
  audience?: string;
  /** Scopes every token must grant; a token without one of them gets 403. */
  scopes?: string[];
  /**
   * The claim whose values (a list, or a space-separated string) are the
   * caller's audiences, which decide the skills and prompts it may use
   * (their `metadata.audience`), e.g. `groups` or `roles`. Default: the
   * token's scopes.
   */
  audienceClaim?: string;
  /** Opaque (non-JWT) tokens: checked at this RFC 7662 endpoint with these client credentials. */
  introspection?: { endpoint: string; clientId: string; clientSecret: string };
  /** JWS algorithms accepted, asymmetric only. Default: RS*, PS*, ES* and EdDSA. */
  algorithms?: string[];
  /** Clock leeway for `exp` and `nbf`, in seconds. Default 30. */
  leewaySeconds?: number;
  /** Longest wait for the authorization server per request. Default 5000 ms. */
  timeoutMs?: number;
  /** Least time between two fetches of the signing keys (an unknown `kid` asks again at most this often). Default 30000 ms. */
  keyCooldownMs?: number;
  /** Longest an introspection answer is kept (never past the token's `exp`). Default 30000 ms. */
  introspectionCacheMs?: number;
}

/** RFC 6749 §3.3 scope tokens: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** The configured scopes, checked so they can go into a quoted header parameter as they are. */
export function readScopes(scopes: readonly string[] | undefined): string[] {
  for (const scope of scopes ?? []) {
    if (!SCOPE_TOKEN.test(scope)) throw new TypeError(`oauth.scopes: "${scope}" is not a valid scope token (RFC 6749 §3.3)`);
  }
  return [...new Set(scopes)];
}
