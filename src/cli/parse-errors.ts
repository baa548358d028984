/**
 * What is wrong with a command line node's parseArgs refused, in the CLI's
 * words: the flag, what it takes, and the command it was given to (which
 * `main` names with that command's usage). parseArgs' own text names no
 * command, and its advice for an unknown option (quote it after `--`) is
 * rarely what was meant; a misspelt flag is far more likely.
 */
import { parseArgs } from 'node:util';
import { editDistance } from '../util/edit-distance.js';
import { LABELS } from './option-labels.js';
import { COMMANDS, type CommandName, isCommand, type OptionName } from './usage.js';

/** What the parser knows of an option: enough to say what it takes. */
type OptionTable = Readonly<Record<string, { type: 'string' | 'boolean' }>>;

/** The option of `command` (of any command when none) nearest to `name`, if one is within two edits. */
function nearest(name: string, command: CommandName | undefined): string | undefined {
  const names = command === undefined ? Object.keys(LABELS) : [...Object.keys(COMMANDS[command].options), 'help'];
  let best: { name: string; edits: number } | undefined;
  for (const candidate of names) {
    const edits = editDistance(name, candidate, 2);
    if (edits <= 2 && (best === undefined || edits < best.edits)) best = { name: candidate, edits };
  }
  return best?.name;
}

/**
 * The first flag of `argv` that parseArgs refuses, said plainly: an unknown
 * option (with the nearest one the command takes), a switch given a value
 * (`--watch=yes`), an option without its value (`--dir` last, or followed by
 * another flag). `fallback` is parseArgs' own message, for anything else.
 */
export function refusal(argv: readonly string[], options: OptionTable, fallback: string): { message: string; command: CommandName | undefined } {
  // Read again leniently: every token is kept, so the one at fault and the command can be named.
  const { tokens, positionals } = parseArgs({ args: [...argv], options, allowPositionals: true, tokens: true, strict: false });
  const named = positionals[0];
  const command = named !== undefined && isCommand(named) ? named : undefined;
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    const label = spec && LABELS[token.name as OptionName];
    if (spec === undefined) {
      const near = token.rawName.startsWith('--') ? nearest(token.name, command) : undefined;
      return { command, message: `unknown option ${token.rawName}${near === undefined ? '' : ` (did you mean --${near}?)`}` };
    }
    if (spec.type === 'boolean' && token.value !== undefined) {
      return { command, message: `${token.rawName} takes no value: write ${token.rawName} alone to turn it on (got ${token.rawName}=${token.value})` };
    }
    if (spec.type === 'string' && token.value === undefined) return { command, message: `${token.rawName} needs a value: ${label}` };
    if (spec.type === 'string' && token.inlineValue === false && token.value.startsWith('-')) {
      return {
        command,
        message: `${token.rawName} needs a value (${label}), but is followed by ${token.value}; a value that starts with "-" is written ${token.rawName}=${token.value}`,
      };
    }
  }
  return { command, message: fallback };
}

/** Where `option` applies, for a flag given to a command that does not take it. */
export function notAnOptionOf(rawName: string, option: OptionName, command: CommandName): string {
  const takers = (Object.keys(COMMANDS) as CommandName[]).filter((name) => option in COMMANDS[name].options);
  const where = takers.length === 0 ? '' : `; ${takers.join(', ')} ${takers.length === 1 ? 'takes' : 'take'} it`;
  return `${rawName} is not an option of ${command}${where}`;
}
