/**
 * Plain Markdown prompt files (`prompts/**.md`): frontmatter `name?`,
 * `description`, `arguments` (skillport's extension); the body with
 * `{{name}}` placeholders is the prompt. Every placeholder is filled, so one
 * that nothing declares is reported (load/placeholders.ts).
 */
import { parseArguments } from '../load/arguments.js';
import { addIssues } from '../load/issues.js';
import { placeholderIssues } from '../load/placeholders.js';
import type { PromptFormat } from './format.js';
import { substituteTemplate } from './substitute.js';

export const markdown: PromptFormat = {
  name: 'markdown',
  detect(parts) {
    const file = parts[parts.length - 1] as string;
    return file.endsWith('.md') && parts.slice(0, -1).includes('prompts') ? file.slice(0, -3) : undefined;
  },
  load({ ref, text, data, body, explicitName, lines, issues }) {
    const { args, issues: found } = parseArguments(data.arguments, ref.rel, lines);
    addIssues(issues, found);
    // The body is the text's end: where it starts gives each placeholder its line.
    addIssues(issues, placeholderIssues([{ path: ref.rel, text, bodyOffset: text.length - body.length }], args, data.arguments, lines));
    return { name: explicitName ?? ref.key, args, render: (values, maxLength) => substituteTemplate(body, values, maxLength) };
  },
};
