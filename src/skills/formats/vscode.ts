/**
 * VS Code prompt files (`*.prompt.md`, anywhere): named by the frontmatter
 * `name` or the file; every `${input:name}` / `${input:name:placeholder}` is
 * a required argument, and VS Code's other variables stay as written.
 */
import type { DeclaredArgument } from '../load/arguments.js';
import type { PromptFormat } from './format.js';
import { substituteVsCode, vsCodeInputs } from './substitute.js';

export const vscode: PromptFormat = {
  name: 'vscode',
  detect(parts) {
    const file = parts[parts.length - 1] as string;
    return file.endsWith('.prompt.md') ? file.slice(0, -'.prompt.md'.length) : undefined;
  },
  load({ ref, body, explicitName }) {
    const args = vsCodeInputs(body).map(({ name, placeholder }) => {
      const argument: DeclaredArgument = { name, required: true };
      if (placeholder !== undefined) argument.description = placeholder;
      return argument;
    });
    return { name: explicitName ?? ref.key, args, render: (values, maxLength) => substituteVsCode(body, values, maxLength) };
  },
};
