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
    find: "return timingSafeEqual(Buffer.from(match[1] as string, 'hex'), expected);",
    replace: "return Buffer.from(match[1] as string, 'hex').length === expected.length;",
    tests: ['test/git/hook.test.ts'],
  },
  {
    id: 'hook-gitlab-token',
    rule: "a GitLab hook's token must be the secret",
    file: 'src/transport/http/git-hook.ts',
    find: 'return token !== null && sameSecret(token, secret);',
    replace: 'return token !== null;',
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
];
