/**
 * The security rules the mutation check breaks, one at a time (see run.mjs).
 * Each names the rule in a sentence, the one place it is written (`find`,
 * exactly once in `file`), the broken form, and the test files that must
 * notice. `build: true` when the guarding tests run the built CLI (dist/).
 * Keep one rule per mutant: a mutant that breaks two rules is killed by
 * whichever test is better, and hides the other.
 */
export const MUTANTS = [
  // Static bearer token (transport/http/auth.ts).
  {
    id: 'token-compare',
    rule: 'a static token must equal the configured one',
    file: 'src/transport/http/auth.ts',
    find: 'return timingSafeEqual(actual, expected) && match !== null;',
    replace: 'return match !== null;',
    tests: ['test/reliability/http-security.test.ts', 'test/transport/http-handler.test.ts'],
  },
  // DNS rebinding (2025-06-18 basic/transports §Security Warning: validate Origin).
  {
    id: 'origin-default',
    rule: 'by default a browser Origin must be a loopback one',
    file: 'src/transport/http/origin.ts',
    find: "return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTNAMES.has(url.hostname);",
    replace: "return url.protocol === 'http:' || url.protocol === 'https:';",
    tests: ['test/reliability/http-security.test.ts', 'test/transport/http-handler.test.ts'],
  },
  {
    id: 'host-default',
    rule: 'by default the Host must be a loopback name',
    file: 'src/transport/http/origin.ts',
    find: 'if (allowed === undefined) return (host) => LOOPBACK_HOSTNAMES.has(splitHost(host).hostname);',
    replace: 'if (allowed === undefined) return (host) => host.length >= 0;',
    tests: ['test/reliability/http-security.test.ts', 'test/transport/http-handler.test.ts'],
  },
  // Confinement of the served folder.
  {
    id: 'confine-inside',
    rule: 'a descriptor opened under the served folder must really be inside it',
    file: 'src/skills/open-inside.ts',
    find: "return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));",
    replace: "return rel === '' || !isAbsolute(rel) || rel.length > 0;",
    tests: ['test/reliability/confinement.test.ts', 'test/reliability/swap-confinement.test.ts'],
  },
  // Audiences (core/audience.ts).
  {
    id: 'audience-mayuse',
    rule: 'a restricted item is used only by a principal of one of its audiences',
    file: 'src/core/audience.ts',
    find: 'return mine !== undefined && audience.some((a) => mine.includes(a));',
    replace: 'return mine !== undefined || audience.length >= 0;',
    tests: ['test/auth/audiences.test.ts'],
  },
  // The git webhook's signatures (transport/http/git-hook.ts).
  {
    id: 'hook-github-hmac',
    rule: "a GitHub hook's signature must be the HMAC of its body",
    file: 'src/transport/http/git-hook.ts',
    find: "return timingSafeEqual(digest, createHmac('sha256', secret).update(body).digest());",
    replace: "return digest.length === createHmac('sha256', secret).update(body).digest().length;",
    tests: ['test/git/hook.test.ts'],
  },
  {
    id: 'hook-gitlab-token',
    rule: "a GitLab hook's token must be the secret",
    file: 'src/transport/http/git-hook.ts',
    find: "return token === null ? { kind: 'none' } : { kind: 'token', valid: sameSecret(token, secret) };",
    replace: "return token === null ? { kind: 'none' } : { kind: 'token', valid: secret !== '' };",
    tests: ['test/git/hook.test.ts'],
  },
  // 2026-07-28 requestState (protocol/rev2026-07-28/request-state.ts).
  {
    id: 'request-state-mac',
    rule: 'a requestState whose MAC does not verify is refused',
    file: 'src/protocol/rev2026-07-28/request-state.ts',
    find: "if (body === undefined || !mac || !(await crypto.subtle.verify('HMAC', await key, mac, utf8.encode(body)))) return refuse();",
    replace: 'if (body === undefined || !mac) return refuse();',
    tests: ['test/protocol/request-state.test.ts', 'test/auth/request-state.test.ts'],
  },
  // Git refs (skills/git/spec.ts): a ref starting with "-" would be read as an option.
  {
    id: 'ref-leading-dash',
    rule: 'a git ref may not start with "-"',
    file: 'src/skills/git/spec.ts',
    find: 'const REF = /^(?!-)(?!\\/)',
    replace: 'const REF = /^(?!\\/)',
    tests: ['test/git/spec.test.ts'],
  },
  // The webhook's body budget (transport/http/extra-routes.ts): stalled hooks never starve /mcp.
  {
    id: 'hook-own-budget',
    rule: "the routes' bodies are held against a budget of their own, which stalled hooks fill (503) before anything else",
    file: 'src/transport/http/extra-routes.ts',
    find: 'const bodies = createBodyBudget(max);',
    replace: 'const bodies = createBodyBudget(Number.MAX_SAFE_INTEGER);',
    tests: ['test/git/hook.test.ts'],
  },
  // OAuth (transport/http/auth/).
  {
    id: 'oauth-token-cap',
    rule: 'a token longer than 16 KiB is refused before anything is asked',
    file: 'src/transport/http/auth/oauth.ts',
    find: "if (token.length > MAX_TOKEN_LENGTH) throw new BadToken('the access token is too long');",
    replace: '',
    tests: ['test/auth/introspection.test.ts', 'test/auth/refusals.test.ts'],
  },
  {
    id: 'oauth-anonymous-token',
    rule: 'a token naming neither a subject nor a client is refused',
    file: 'src/transport/http/auth/oauth.ts',
    find: "if (subject === undefined && client === undefined) throw new BadToken('the access token names neither a subject nor a client');",
    replace: '',
    tests: ['test/auth/sessions.test.ts'],
  },
  {
    id: 'introspection-cache-exp',
    rule: 'an introspection answer is kept no longer than its token lives',
    file: 'src/transport/http/auth/introspection.ts',
    find: 'const until = Math.min(now + options.cacheMs, exp);',
    replace: 'const until = now + options.cacheMs + 0 * exp;',
    tests: ['test/auth/introspection.test.ts'],
  },
  {
    id: 'introspection-cache-forever',
    rule: 'an introspection answer is asked again once the cache time passes (revocation)',
    file: 'src/transport/http/auth/introspection.ts',
    find: 'if (known && known.until > now) return known.claims;',
    replace: 'if (known) return known.claims;',
    tests: ['test/auth/introspection.test.ts'],
  },
  {
    id: 'introspection-in-flight',
    rule: 'at most maxInFlight tokens are asked about at once',
    file: 'src/transport/http/auth/introspection.ts',
    find: 'if (asking.size >= options.maxInFlight)',
    replace: 'if (asking.size < 0)',
    tests: ['test/auth/introspection.test.ts'],
  },
  {
    id: 'discovery-issuer',
    rule: "the metadata's issuer must be the one configured (RFC 8414 §3.3)",
    file: 'src/transport/http/auth/discovery.ts',
    find: 'if (!isMetadata(document) || document.issuer !== issuer)',
    replace: 'if (!isMetadata(document))',
    tests: ['test/auth/discovery.test.ts'],
  },
  {
    id: 'principal-client',
    rule: "sessions and requestState are bound to the token's client as well as its subject",
    file: 'src/core/context.ts',
    find: 'JSON.stringify([principal.client ?? null, principal.subject ?? null])',
    replace: 'JSON.stringify([principal.subject ?? null])',
    tests: ['test/auth/sessions.test.ts', 'test/auth/request-state.test.ts'],
  },
  {
    id: 'session-owner',
    rule: 'a session is found only by the caller that opened it',
    file: 'src/transport/http/session-lookup.ts',
    find: 'then(session && session.owner !== caller ? undefined : session)',
    replace: 'then(session)',
    tests: ['test/auth/sessions.test.ts'],
  },
  {
    id: 'cache-scope-private',
    rule: 'a 2026-07-28 answer made for its caller says cacheScope "private"',
    file: 'src/protocol/rev2026-07-28/index.ts',
    find: "wire.cacheScope = forCaller ? 'private' : server.cache.cacheScope;",
    replace: 'wire.cacheScope = server.cache.cacheScope;',
    tests: ['test/auth/cache-scope.test.ts'],
  },
  // Git sources (skills/git/).
  {
    id: 'git-credentials-clear-helpers',
    rule: "the operator's credential helpers are neither asked nor told to store a source's password",
    file: 'src/skills/git/run-git.ts',
    find: "[`GIT_CONFIG_VALUE_${n}`]: '',",
    replace: "[`GIT_CONFIG_VALUE_${n}`]: 'cache',",
    tests: ['test/git/credentials.test.ts'],
  },
  {
    id: 'git-credentials-origin',
    rule: "a source's password goes to its own origin only",
    file: 'src/skills/git/run-git.ts',
    find: 'const key = `credential.${new URL(url).origin}.helper`;',
    replace: "const key = 'credential.helper' + (url ? '' : '');",
    tests: ['test/git/credentials.test.ts'],
  },
  {
    id: 'git-no-operator-config',
    rule: "only the fetch reads the operator's git configuration",
    file: 'src/skills/git/run-git.ts',
    find: 'if (call.remote !== true) {',
    replace: 'if (call.remote === undefined && call.env === null) {',
    tests: ['test/git/filters.test.ts'],
  },
  {
    id: 'git-neutral-attributes',
    rule: "the cache repository's info/attributes unsets every filter and conversion",
    file: 'src/skills/git/workspace.ts',
    find: "await writeFile(join(repo, 'info', 'attributes'), NEUTRAL_ATTRIBUTES);",
    replace: "await writeFile(join(repo, 'info', 'attributes'), '');",
    tests: ['test/git/filters.test.ts'],
  },
  {
    id: 'git-end-of-options',
    rule: 'the fetch never reads its URL or ref as an option',
    file: 'src/skills/git/workspace.ts',
    find: "'--no-recurse-submodules', '--end-of-options', spec.url, ref]",
    replace: "'--no-recurse-submodules', spec.url, ref]",
    tests: ['test/git/workspace.test.ts'],
  },
  {
    id: 'git-checkout-bytes',
    rule: 'a commit past maxCheckoutBytes is refused before anything is written',
    file: 'src/skills/git/tree-limits.ts',
    find: 'if (bytes > limits.maxBytes)',
    replace: 'if (bytes < 0)',
    tests: ['test/git/checkout-limits.test.ts'],
  },
  {
    id: 'git-checkout-entries',
    rule: 'a commit past limits.maxEntries is refused before anything is written',
    file: 'src/skills/git/tree-limits.ts',
    find: 'if (++entries > limits.maxEntries)',
    replace: 'if (++entries < 0)',
    tests: ['test/git/checkout-limits.test.ts'],
  },
];
