/**
 * The values `load_skill` renders a skill with, and what it tells the model of
 * the arguments it did not get. A host whose user can answer a form
 * (elicitation) is asked for a missing required argument, as `prompts/get`
 * asks (core/prompt-arguments.ts). A host that cannot ask gets the skill all
 * the same: a model-invoked skill is loaded without arguments, as Claude Code
 * loads one, and the model fills them in from the conversation; a note before
 * the text names what the skill takes and what was left unfilled, and each
 * unfilled required placeholder stays in the text to say where its value goes.
 * Only the tool does this: `prompts/get` keeps its -32602 for a missing
 * required argument (server/prompts §Error Handling).
 */
import type { Awaitable, HandlerContext } from '../../core/context.js';
import type { Completion, Prompt, PromptArgument } from '../../core/model.js';
import { isMissing, lacksArguments, requiredArguments } from '../../core/prompt-arguments.js';
import { InvalidParamsError } from '../../jsonrpc/errors.js';

/** Most completion values named for an argument. */
const MAX_OFFERED = 20;

/** What an argument completes to with nothing typed yet, as a client's form would offer it. */
export type Offered = (argument: string, values: Record<string, string>) => Awaitable<Completion>;

/** What `load_skill` was given besides the skill's name. */
export interface GivenArguments {
  arguments?: Record<string, string>;
  locale?: string;
}

/** The values to render with, what is wrong with what was given, and the required arguments left unfilled. */
export interface SkillArguments {
  values: Record<string, string>;
  issues: string[];
  unfilled: PromptArgument[];
}

/** An argument's description and the values it completes to, as one clause each; empty when it has neither. */
async function about(argument: PromptArgument, values: Record<string, string>, offered: Offered): Promise<string[]> {
  const { values: suggested } = await offered(argument.name, values);
  const parts = argument.description === undefined ? [] : [argument.description];
  if (suggested.length > 0) parts.push(`suggested values: ${suggested.slice(0, MAX_OFFERED).join(', ')}`);
  return parts;
}

/**
 * `given` checked against what skill `name` declares, the locale added, and
 * missing required arguments asked of the user where the host can ask. What is
 * still missing after an answer is an issue (the user was asked and did not
 * give it); from a host that cannot ask it is `unfilled`, for the model.
 */
export async function argumentValues(name: string, prompt: Prompt, input: GivenArguments, ctx: HandlerContext, offered: Offered): Promise<SkillArguments> {
  const { locale, arguments: given = {} } = input;
  const declared = prompt.arguments ?? [];
  const values: Record<string, string> = { ...given };
  // The locale of a skill with variants is its `locale` argument (catalogue/entries.ts); a skill without any has one text.
  if (locale !== undefined && declared.some((a) => a.name === 'locale')) values.locale = locale;
  const issues: string[] = [];
  for (const key of Object.keys(given)) {
    if (!declared.some((a) => a.name === key)) {
      const takes = declared.length === 0 ? 'it takes none' : `it takes ${declared.map((a) => a.name).join(', ')}`;
      issues.push(`/arguments/${key}: the skill "${name}" has no argument "${key}"; ${takes}`);
    }
  }
  if (issues.length > 0 || !lacksArguments(prompt, values)) return { values, issues, unfilled: [] };
  // The rule prompts/get keeps (core/prompt-arguments.ts): an empty value is a missing one.
  const missing = declared.filter((argument) => isMissing(argument, values));
  // client/elicitation: only a client that declared the capability, on a request that can carry the question, is asked.
  if (!ctx.can.input('elicitation/create')) return { values, issues, unfilled: missing };
  try {
    return { values: await requiredArguments(prompt, values, ctx, async (argument) => offered(argument, values)), issues, unfilled: [] };
  } catch (error) {
    if (!(error instanceof InvalidParamsError)) throw error;
  }
  // Declined, cancelled or answered without a value: the user was asked, and the caller is told what the skill needs.
  for (const argument of missing) {
    const said = (await about(argument, values, offered)).join('; ');
    issues.push(`/arguments/${argument.name}: required by the skill "${name}"${said ? ` (${said})` : ''}`);
  }
  return { values, issues, unfilled: [] };
}

/**
 * `values` with each unfilled argument's placeholder for its value: the
 * substitution inserts a value as written, so `{{language}}` stays in the
 * text where the model is to read its own value.
 */
export function withPlaceholders(values: Record<string, string>, unfilled: readonly PromptArgument[]): Record<string, string> {
  const marked = { ...values };
  for (const argument of unfilled) marked[argument.name] = `{{${argument.name}}}`;
  return marked;
}

/**
 * The note before a skill loaded without some of its required arguments: the
 * arguments it takes (the given ones with their value; a skill's `locale`,
 * which the tool's own input sets, only when it is required), and what to do.
 */
export async function unfilledNote(
  name: string,
  prompt: Prompt,
  values: Record<string, string>,
  unfilled: readonly PromptArgument[],
  offered: Offered,
): Promise<string> {
  const placeholders = unfilled.map((a) => `{{${a.name}}}`).join(', ');
  const lines = [
    `The skill "${name}" was loaded without ${unfilled.map((a) => a.name).join(', ')}, which it requires. ` +
      `Take the values from the conversation (ask the user only if it does not say), and read ${placeholders} in the skill as those values; ` +
      'or call load_skill again with them in arguments. Its arguments:',
  ];
  for (const argument of prompt.arguments ?? []) {
    if (argument.name === 'locale' && argument.required !== true) continue;
    const given = values[argument.name];
    const unset = given === undefined || given === '';
    // A given value is echoed cut short: the note stays bounded whatever the caller sent.
    const state = unset ? 'not given' : `given: ${JSON.stringify(given.length > 100 ? `${given.slice(0, 100)}…` : given)}`;
    const clauses = unset ? await about(argument, values, offered) : [];
    const said = clauses.length > 0 ? `: ${clauses.join('; ')}` : '';
    lines.push(`- ${argument.name} (${argument.required === true ? 'required' : 'optional'}, ${state})${said}`);
  }
  return lines.join('\n');
}
