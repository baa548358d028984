/** oidc-provider 8 ships no types; the tests use its constructor, `callback()` and nothing else. */
declare module 'oidc-provider' {
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: unknown, res: unknown) => void;
  }
}
