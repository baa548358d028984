/**
 * Every option of the command line and how its help shows it: the flag with
 * its value's placeholder. The option names are this table's keys, so a flag
 * cannot be parsed (args.ts) without being shown (usage.ts).
 */

/** How an option is shown in help: the flag with its value's placeholder. */
export const LABELS = {
  dir: '--dir DIR',
  http: '--http HOST:PORT',
  watch: '--watch',
  'no-tools': '--no-tools',
  'no-page': '--no-page',
  prefix: '--prefix P',
  name: '--name N',
  title: '--title T',
  instructions: '--instructions TEXT',
  arg: '--arg NAME=VALUE',
  json: '--json',
  strict: '--strict',
  'log-level': '--log-level L',
  'log-format': '--log-format F',
  'page-size': '--page-size N',
  'auth-token': '--auth-token T',
  'auth-issuer': '--auth-issuer URL',
  'auth-audience': '--auth-audience URL',
  'auth-scope': '--auth-scope S',
  'auth-claim': '--auth-claim NAME',
  'auth-introspection': '--auth-introspection URL',
  'auth-client-id': '--auth-client-id ID',
  'auth-client-secret-env': '--auth-client-secret-env VAR',
  'allow-origin': '--allow-origin O',
  'allow-host': '--allow-host H',
  'pull-interval': '--pull-interval S',
  'cache-dir': '--cache-dir DIR',
  'index-origin': '--index-origin O',
  'index-insecure-http': '--index-insecure-http',
  'hook-secret-env': '--hook-secret-env VAR',
  redis: '--redis URL',
  metrics: '--metrics HOST:PORT',
  'trust-proxy': '--trust-proxy',
  'no-index': '--no-index',
  to: '--to DIR',
  force: '--force',
  'token-env': '--token-env VAR',
  help: '-h, --help',
  version: '-v, --version',
} as const satisfies Record<string, string>;

/** Every option name, as written after `--`. */
export type OptionName = keyof typeof LABELS;
