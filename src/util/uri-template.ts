/**
 * The part of RFC 6570 URI templates that resource templates need: simple
 * string expansion `{var}` (one path segment; reserved characters are
 * percent-encoded) and reserved expansion `{+var}` (may span `/`). Templates
 * with other operators are rejected when they are defined, not when matched.
 * The same names are read from a literal template string at the type level
 * (`TemplateVariables`), so a handler's variables are typed by its template.
 */

/** A parsed URI template. */
export interface UriTemplate {
  readonly template: string;
  /** Variable names in order of appearance. */
  readonly variables: readonly string[];
  /** The variables of `uri` when it matches, otherwise undefined. */
  match(uri: string): Record<string, string> | undefined;
  /** Builds a URI from variable values. */
  expand(values: Record<string, string>): string;
}

/**
 * The variable names of the template string `T`: the name of each `{name}`
 * and `{+name}` expression (the `+` dropped), read at the type level as
 * {@link templatePattern} reads them at run time.
 */
export type TemplateVariableNames<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? (E extends `+${infer N}` ? N : E) | TemplateVariableNames<Rest>
  : never;

/**
 * The values a match of the template string `T` gives: one string per
 * variable, every one present (each expression matches one character or
 * more, so a matching URI has them all). A `T` that is not a literal (type
 * `string`) gives `Record<string, string>`.
 */
export type TemplateVariables<T extends string> = string extends T
  ? Record<string, string>
  : T extends unknown
    ? { [K in TemplateVariableNames<T>]: string }
    : never;

const EXPRESSION = /\{([+]?)([A-Za-z0-9_]+)\}/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The regular expression source that matches URIs of `template`, in linear
 * time: URIs come from clients. A variable followed by more of the template
 * runs to the first occurrence of the literal text after it (a lazy `(.+?)`
 * there is quadratic with two variables); the last variable takes everything
 * up to the template's closing text. `{var}` stays within one path segment,
 * `{+var}` may include `/`.
 */
export function templatePattern(template: string): { source: string; variables: string[] } {
  const leftover = template.replace(EXPRESSION, '');
  if (leftover.includes('{') || leftover.includes('}')) {
    throw new TypeError(`Unsupported URI template "${template}": only {name} and {+name} expressions are supported`);
  }
  const expressions = [...template.matchAll(EXPRESSION)];
  const variables: string[] = [];
  let source = '^';
  let last = 0;
  for (const [index, match] of expressions.entries()) {
    const [whole, operator, name] = match as unknown as [string, string, string];
    if (variables.includes(name)) throw new TypeError(`URI template "${template}" repeats the variable "${name}"`);
    source += escapeRegExp(template.slice(last, match.index));
    last = match.index + whole.length;
    const one = operator === '+' ? '.' : '[^/?#]';
    const following = expressions[index + 1];
    const literal = template.slice(last, following?.index ?? template.length);
    if (following === undefined) source += `(${one}+)`;
    else if (literal === '') throw new TypeError(`URI template "${template}" has two variables with nothing between them`);
    else source += `((?:(?!${escapeRegExp(literal)})${one})+)`;
    variables.push(name);
  }
  source += `${escapeRegExp(template.slice(last))}$`;
  return { source, variables };
}

/** Parses `template`; throws a TypeError naming what is unsupported. */
export function parseUriTemplate(template: string): UriTemplate {
  const { source, variables } = templatePattern(template);
  const regex = new RegExp(source);

  return {
    template,
    variables,
    match(uri) {
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      for (let i = 0; i < variables.length; i++) {
        const raw = found[i + 1] as string;
        try {
          values[variables[i] as string] = decodeURIComponent(raw);
        } catch {
          return undefined;
        }
      }
      return values;
    },
    expand(values) {
      return template.replace(EXPRESSION, (_whole, operator: string, name: string) => {
        const value = values[name] ?? '';
        return operator === '+' ? encodeURI(value) : encodeURIComponent(value);
      });
    },
  };
}
