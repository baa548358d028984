/**
 * The example server that `skillport serve` runs when no skills folder is
 * given: a few everyday prompts with completable arguments and a family of
 * guide resources. It is written with the public API only, so it doubles as
 * an example of the library.
 */
import {
  createServer,
  defineResource,
  defineResourceTemplate,
  definePrompt,
  type Logger,
  ResourceNotFoundError,
  type Server,
  staticPrompts,
  staticResources,
} from '../index.js';

const LANGUAGES = ['c', 'c++', 'c#', 'go', 'java', 'javascript', 'kotlin', 'python', 'ruby', 'rust', 'swift', 'typescript'];

const COMMIT_TYPES = ['feat', 'fix', 'docs', 'style', 'refactor', 'perf', 'test', 'build', 'ci', 'chore', 'revert'];

// Region variants per language, so the second argument's suggestions depend on the first.
const LOCALES: Record<string, string[]> = {
  english: ['en-GB', 'en-US', 'en-AU', 'en-CA', 'en-IN'],
  french: ['fr-FR', 'fr-CA', 'fr-BE', 'fr-CH'],
  german: ['de-DE', 'de-AT', 'de-CH'],
  portuguese: ['pt-BR', 'pt-PT'],
  spanish: ['es-ES', 'es-MX', 'es-AR', 'es-CO'],
};

const GUIDES: Record<string, string> = {
  'code-review': '# Code review checklist\n\n- Does it do what the change says?\n- Are failure paths handled?\n- Are there tests that would fail without the change?\n',
  'commit-messages': '# Commit messages\n\nUse the imperative mood, keep the subject under 72 characters, and explain *why* in the body.\n',
  'naming': '# Naming\n\nName things for what they mean to the reader, not for how they are built.\n',
};

const prompts = staticPrompts([
  definePrompt({
    name: 'code_review',
    title: 'Code review',
    description: 'Review a piece of code for correctness, clarity and risk.',
    arguments: [
      { name: 'language', description: 'Programming language of the code', required: true, complete: LANGUAGES },
      { name: 'focus', description: 'What to look at first', complete: ['correctness', 'security', 'performance', 'readability', 'tests'] },
      { name: 'code', description: 'The code to review', required: true },
    ],
    get: ({ language, focus, code }) =>
      `Review the following ${language} code${focus ? `, focusing on ${focus}` : ''}. ` +
      `List concrete problems first, then suggestions.\n\n\`\`\`${language}\n${code}\n\`\`\``,
  }),
  definePrompt({
    name: 'commit_message',
    title: 'Commit message',
    description: 'Write a Conventional Commits message for a change.',
    arguments: [
      { name: 'type', description: 'Conventional Commits type', required: true, complete: COMMIT_TYPES },
      { name: 'scope', description: 'Area of the code base' },
      { name: 'change', description: 'What changed and why', required: true },
    ],
    get: ({ type, scope, change }) =>
      `Write a commit message of type "${type}"${scope ? ` with scope "${scope}"` : ''} for this change. ` +
      `Subject under 72 characters, imperative mood, body explaining why.\n\n${change}`,
  }),
  definePrompt({
    name: 'translate',
    title: 'Translate',
    description: 'Translate text into a language and regional variant.',
    arguments: [
      { name: 'language', description: 'Target language', required: true, complete: Object.keys(LOCALES) },
      {
        name: 'variant',
        description: 'Regional variant (suggestions follow the chosen language)',
        complete: (value, context) => {
          const language = context.arguments.language?.toLowerCase();
          const variants = language ? (LOCALES[language] ?? []) : Object.values(LOCALES).flat();
          return variants.filter((v) => v.toLowerCase().startsWith(value.toLowerCase()));
        },
      },
      { name: 'text', description: 'Text to translate', required: true },
    ],
    get: ({ language, variant, text }) => [
      {
        role: 'user',
        content: { type: 'text', text: `Translate into ${language}${variant ? ` (${variant})` : ''}, keeping tone and formatting:\n\n${text}` },
      },
    ],
  }),
  definePrompt({
    name: 'explain_guide',
    title: 'Explain a guide',
    description: 'Explain one of the bundled writing guides, with the guide attached.',
    arguments: [{ name: 'topic', description: 'Guide to explain', required: true, complete: Object.keys(GUIDES) }],
    get: ({ topic }) => {
      const text = GUIDES[topic];
      if (text === undefined) return `There is no guide named "${topic}". Known guides: ${Object.keys(GUIDES).join(', ')}.`;
      return {
        description: `Explain the ${topic} guide`,
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: `skillport://guides/${topic}`, mimeType: 'text/markdown', text } } },
          { role: 'user', content: { type: 'text', text: 'Explain this guide in three short paragraphs, with one example each.' } },
        ],
      };
    },
  }),
]);

const resources = staticResources({
  resources: [
    defineResource({
      uri: 'skillport://about',
      name: 'about',
      title: 'About this server',
      description: 'What the example server offers.',
      mimeType: 'text/plain',
      read: () => 'skillport example server: prompts code_review, commit_message, translate and explain_guide; guides under skillport://guides/{topic}.',
    }),
  ],
  templates: [
    defineResourceTemplate({
      uriTemplate: 'skillport://guides/{topic}',
      name: 'guide',
      title: 'Writing guides',
      description: 'Short guides on reviews, commit messages and naming.',
      mimeType: 'text/markdown',
      complete: { topic: Object.keys(GUIDES) },
      read: (uri, { topic }) => {
        const text = topic === undefined ? undefined : GUIDES[topic];
        if (text === undefined) throw new ResourceNotFoundError(uri);
        return text;
      },
    }),
  ],
});

/** Builds the example server. */
export function createDemoServer(options: { version: string; logger?: Logger; pageSize?: number }): Server {
  return createServer({
    name: 'skillport-example',
    title: 'skillport example',
    version: options.version,
    instructions: 'Prompts for code review, commit messages and translation; guides as resources.',
    prompts,
    resources,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
  });
}
