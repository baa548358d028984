/**
 * The types a template string gives `defineResourceTemplate`: `read`'s
 * variables and `complete`'s keys are the template's own names. These are
 * checked by the compiler (`npm run typecheck`, part of `npm test` and `npm run
 * check`, covers test/): a `@ts-expect-error` that no longer sees an error
 * fails the type-check. The runtime assertions beside them hold what the
 * types promise against what `parseUriTemplate` actually matches.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CompletionSource } from '../../src/core/completers.js';
import { silentLogger } from '../../src/core/context.js';
import { defineResourceTemplate, type ResourceTemplateDefinitionInput, staticResources } from '../../src/core/resources.js';
import { parseUriTemplate, type TemplateVariableNames, type TemplateVariables } from '../../src/util/uri-template.js';

const ctx = { signal: new AbortController().signal, logger: silentLogger };

describe('TemplateVariables', () => {
  it('names each {name} and {+name} expression, all required', () => {
    expectTypeOf<TemplateVariables<'notes://{topic}'>>().toEqualTypeOf<{ topic: string }>();
    expectTypeOf<TemplateVariables<'file:///{+path}'>>().toEqualTypeOf<{ path: string }>();
    expectTypeOf<TemplateVariables<'x://{owner}/{repo}/tree/{+path}'>>().toEqualTypeOf<{ owner: string; repo: string; path: string }>();
    expectTypeOf<TemplateVariableNames<'x://{a}-{b}'>>().toEqualTypeOf<'a' | 'b'>();
    // Every variable is present in a match: each expression takes one character or more.
    expect(parseUriTemplate('x://{owner}/{repo}/tree/{+path}').match('x://o/r/tree/a/b')).toEqual({ owner: 'o', repo: 'r', path: 'a/b' });
    expect(parseUriTemplate('x://{owner}/{repo}').match('x://o/')).toBeUndefined();
  });

  it('gives no variables for a template without expressions', () => {
    expectTypeOf<TemplateVariableNames<'x://fixed'>>().toEqualTypeOf<never>();
    // biome-ignore lint/complexity/noBannedTypes: the empty object type is the point here.
    expectTypeOf<TemplateVariables<'x://fixed'>>().toEqualTypeOf<{}>();
  });

  it('falls back to Record<string, string> for a template typed string', () => {
    expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<ResourceTemplateDefinitionInput['complete']>().toEqualTypeOf<Record<string, CompletionSource> | undefined>();
  });

  it('gives each member of a union of templates its own variables', () => {
    expectTypeOf<TemplateVariables<'a://{x}' | 'b://{y}'>>().toEqualTypeOf<{ x: string } | { y: string }>();
  });
});

describe('defineResourceTemplate', () => {
  it("types read's variables from the template string", async () => {
    const notes = defineResourceTemplate({
      uriTemplate: 'notes://{topic}/{+rest}',
      name: 'notes',
      complete: { topic: ['design'] },
      read: (uri, variables) => {
        expectTypeOf(variables).toEqualTypeOf<{ topic: string; rest: string }>();
        expectTypeOf(uri).toEqualTypeOf<string>();
        return `${variables.topic}:${variables.rest}`;
      },
    });
    const provider = staticResources([notes]);
    expect(await provider.read('notes://design/a/b', ctx)).toMatchObject({ contents: [{ text: 'design:a/b' }] });
  });

  it('refuses a variable the template lacks, in read and in complete', () => {
    defineResourceTemplate({
      uriTemplate: 'notes://{topic}',
      name: 'notes',
      // @ts-expect-error: the template's variable is `topic`.
      read: (_uri, { topik }) => `${topik}`,
    });
    expect(() =>
      defineResourceTemplate({
        uriTemplate: 'notes://{topic}',
        name: 'notes',
        // @ts-expect-error: `complete` names only the template's variables.
        complete: { topik: ['design'] },
        read: (_uri, { topic }) => topic,
      }),
    ).toThrow(/no variable "topik"/);
  });

  it('takes any names for a template string typed string, and still checks them when it runs', () => {
    const template: string = 'notes://{topic}';
    const read = (_uri: string, variables: Record<string, string>) => variables.topik ?? 'none';
    expect(() => defineResourceTemplate({ uriTemplate: template, name: 'notes', complete: { topik: [] }, read })).toThrow(/no variable "topik"/);
    expectTypeOf(defineResourceTemplate({ uriTemplate: template, name: 'notes', read }).template.uriTemplate).toEqualTypeOf<string>();
  });

  it('keeps a read written against Record<string, string>', () => {
    // A definition written before the variables were typed still compiles.
    const read = (_uri: string, variables: Record<string, string>) => variables.topic ?? '';
    defineResourceTemplate({ uriTemplate: 'notes://{topic}', name: 'notes', read });
  });
});
