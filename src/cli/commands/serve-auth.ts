/**
 * The OAuth flags of `serve --http`: `--auth-issuer URL [--auth-audience URL]
 * [--auth-scope S]... [--auth-claim NAME] [--auth-introspection URL --auth-client-id ID
 * --auth-client-secret-env VAR]`, turned into the HTTP `oauth` option. The
 * client secret is read from the environment variable named, never from the
 * command line, where other users of the machine could see it.
 */
import type { OAuthOptions } from '../../http.js';
import { type Invocation, UsageError } from '../args.js';

export const OAUTH_FLAGS = [
  'auth-issuer',
  'auth-audience',
  'auth-scope',
  'auth-claim',
  'auth-introspection',
  'auth-client-id',
  'auth-client-secret-env',
] as const;

function httpUrl(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--${flag} must be a URL`, 'serve');
  }
  // MCP basic/authorization §Communication Security: authorization server endpoints are HTTPS, loopback aside.
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new UsageError(`--${flag} must be an https URL (http only on loopback)`, 'serve');
  // The URL is logged (the issuer at start, an endpoint when it cannot be reached): a password in it would be too.
  if (url.username !== '' || url.password !== '')
    throw new UsageError(`--${flag} must not hold a user or password (the client secret goes in --auth-client-secret-env)`, 'serve');
  return value;
}

/** The `oauth` option the flags describe, or undefined without `--auth-issuer`. */
export function oauthOptions(values: Invocation['values'], env: Record<string, string | undefined>): OAuthOptions | undefined {
  const issuer = values['auth-issuer'];
  if (issuer === undefined) {
    const given = OAUTH_FLAGS.find((flag) => values[flag] !== undefined);
    if (given) throw new UsageError(`--${given} applies only with --auth-issuer`, 'serve');
    return undefined;
  }
  const options: OAuthOptions = { issuer: httpUrl(issuer, 'auth-issuer') };
  if (values['auth-audience'] !== undefined) options.audience = values['auth-audience'];
  if (values['auth-scope']) options.scopes = values['auth-scope'];
  if (values['auth-claim'] !== undefined) options.audienceClaim = values['auth-claim'];
  const endpoint = values['auth-introspection'];
  const clientId = values['auth-client-id'];
  const secretVar = values['auth-client-secret-env'];
  if (endpoint === undefined) {
    if (clientId !== undefined || secretVar !== undefined)
      throw new UsageError('--auth-client-id and --auth-client-secret-env apply only with --auth-introspection', 'serve');
    return options;
  }
  const introspection = httpUrl(endpoint, 'auth-introspection');
  if (clientId === undefined || secretVar === undefined)
    throw new UsageError('--auth-introspection needs --auth-client-id and --auth-client-secret-env', 'serve');
  const clientSecret = env[secretVar];
  if (!clientSecret) throw new UsageError(`--auth-client-secret-env: the environment variable ${secretVar} is not set`, 'serve');
  options.introspection = { endpoint: introspection, clientId, clientSecret };
  return options;
}
