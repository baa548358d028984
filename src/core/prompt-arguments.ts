/**
 * A prompt's required arguments, checked before any provider runs, and asked
 * of the user when they are missing and the client can ask (elicitation): a
 * form with one field per missing argument, its description, and its values
 * as an enum when the prompt offers a short fixed list. A client that cannot
 * ask gets -32602 naming the argument, as server/prompts §Error Handling says.
 */
import { InvalidParamsError } from '../jsonrpc/errors.js';
import type { RequestContext } from './context.js';
import { isInputUnavailableError } from './input.js';
import type { Completion, Prompt, PromptArgument } from './model.js';

/** At most this many values become a form's enum; a longer list is left to completion. */
const ENUM_MAX = 25;

/** The key the question is asked under: one form per request. */
export const PROMPT_ARGUMENTS_KEY = 'prompt_arguments';

/** An empty value is a missing one: a client form left blank sends "", and a prompt rendered with nothing where it needs a value is no answer. */
export function isMissing(argument: PromptArgument, args: Record<string, string>): boolean {
  return argument.required === true && (args[argument.name] === undefined || args[argument.name] === '');
}

function missingOf(prompt: Prompt, args: Record<string, string>): PromptArgument[] {
  return (prompt.arguments ?? []).filter((argument) => isMissing(argument, args));
}

/** Whether `args` lacks a required argument of `prompt`: checked before anything is awaited, as most requests lack none. */
export function lacksArguments(prompt: Prompt, args: Record<string, string>): boolean {
  for (const argument of prompt.arguments ?? []) if (isMissing(argument, args)) return true;
  return false;
}

function missingError(prompt: Prompt, argument: PromptArgument): InvalidParamsError {
  return new InvalidParamsError(`Missing required argument "${argument.name}" for prompt "${prompt.name}"`, { name: prompt.name, argument: argument.name });
}

/**
 * `args` with every required argument present: as given, or completed by the
 * user through the client. `values` lists an argument's fixed values (its
 * completion for an empty value) for the form's enum.
 */
export async function requiredArguments(
  prompt: Prompt,
  args: Record<string, string>,
  ctx: RequestContext,
  values: (argument: string) => Promise<Completion>,
): Promise<Record<string, string>> {
  const missing = missingOf(prompt, args);
  const first = missing[0];
  if (!first) return args;
  if (!ctx.input || ctx.client?.capabilities.elicitation === undefined) throw missingError(prompt, first);
  const properties: Record<string, Record<string, unknown>> = {};
  for (const argument of missing) {
    const field: Record<string, unknown> = { type: 'string', title: argument.title ?? argument.name };
    if (argument.description !== undefined) field.description = argument.description;
    const offered = await values(argument.name).catch(() => undefined);
    if (
      offered &&
      offered.values.length > 0 &&
      offered.values.length <= ENUM_MAX &&
      !offered.hasMore &&
      (offered.total ?? offered.values.length) === offered.values.length
    ) {
      field.enum = offered.values;
    }
    properties[argument.name] = field;
  }
  let answer: Awaited<ReturnType<NonNullable<RequestContext['input']>>>;
  try {
    answer = await ctx.input(PROMPT_ARGUMENTS_KEY, {
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: `${prompt.title ?? prompt.name} needs ${missing.map((a) => a.title ?? a.name).join(', ')}.`,
        requestedSchema: { type: 'object', properties, required: missing.map((a) => a.name) },
      },
    });
  } catch (error) {
    // A revision that cannot carry the question: what a client that cannot ask gets.
    if (isInputUnavailableError(error)) throw missingError(prompt, first);
    throw error;
  }
  const content = 'action' in answer && answer.action === 'accept' ? (answer.content ?? {}) : undefined;
  if (!content) throw new InvalidParamsError(`The user did not give the arguments of prompt "${prompt.name}"`, { name: prompt.name });
  const completed = { ...args };
  for (const argument of missing) {
    const value = content[argument.name];
    if (value === undefined || value === '') throw missingError(prompt, argument);
    completed[argument.name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return completed;
}
