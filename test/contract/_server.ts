/**
 * The server every contract case runs against, declared the way
 * docs/library.md teaches: `definePrompt` with typed arguments
 * and completions (its `code_review` example, word for word), an `output`
 * prompt, `defineResource` and `defineResourceTemplate` served with
 * `staticResources`, and `livePrompts` so that the prompts can change while
 * serving. Two prompts per page, so that listing takes three pages.
 */
import { createServer, definePrompt, defineResource, defineResourceTemplate, livePrompts, type Server, staticResources } from '../../src/index.js';

export interface ContractServer {
  server: Server;
  /** Names of the prompts whose `get` started. */
  readonly started: string[];
  /** Names of the prompts whose `get` saw its request cancelled. */
  readonly cancelled: string[];
  /** Adds a prompt while serving: a prompt list change. */
  change(): void;
}

/** The `serverInfo` it presents. */
export const SERVER_INFO = { name: 'contract', version: '1.0.0' };

/** What the server declares: logging (on by default), completions, resources, and prompts that can change. */
export const CAPABILITIES = { logging: {}, completions: {}, prompts: { listChanged: true }, resources: {} };

/** The prompts, in the order they are listed. */
export const PROMPT_NAMES = ['code_review', 'standup', 'translate', 'summarize', 'wait'];

/** docs/library.md's first example (examples/quick-start.ts). */
const review = definePrompt({
  name: 'code_review',
  title: 'Code review',
  description: 'Review code in a given language.',
  arguments: [
    // A fixed list completes with prefix, then substring, then fuzzy matches.
    { name: 'language', description: 'Language of the code', required: true, complete: ['go', 'python', 'rust', 'typescript'] },
    { name: 'code', description: 'The code to review', required: true },
  ],
  get: ({ language, code }) => `Review this ${language} code for bugs and clarity:\n\n${code}`,
});

const standup = definePrompt({ name: 'standup', description: 'Write a stand-up update.', output: 'Summarise what I did yesterday.' });

const translate = definePrompt({
  name: 'translate',
  description: 'Translate a text.',
  arguments: [
    { name: 'text', required: true },
    // A function: it sees the value typed so far.
    { name: 'to', description: 'Target language', complete: (value) => ['english', 'french', 'german'].filter((language) => language.startsWith(value)) },
  ],
  get: ({ text, to }) => [
    { role: 'user', content: { type: 'text', text: `Translate into ${to ?? 'english'}:` } },
    { role: 'user', content: { type: 'text', text } },
  ],
});

const summarize = definePrompt({
  name: 'summarize',
  description: 'Summarise a text.',
  arguments: [{ name: 'text', required: true }],
  get: ({ text }) => ({ description: 'A summary request', messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${text}` } }] }),
});

const readme = defineResource({ uri: 'docs://readme', name: 'readme', description: 'The read-me.', mimeType: 'text/markdown', read: () => '# Hello' });

const page = defineResourceTemplate({
  uriTemplate: 'docs://pages/{page}',
  name: 'page',
  description: 'A page by number.',
  mimeType: 'text/plain',
  read: (_uri, { page: number }) => `Page ${number}`,
});

export function createContractServer(): ContractServer {
  const started: string[] = [];
  const cancelled: string[] = [];
  // Answers only when its request is cancelled: the case that cancels it decides when it ends.
  const wait = definePrompt({
    name: 'wait',
    description: 'Waits until cancelled.',
    get: (_args, ctx) =>
      new Promise<string>((resolve) => {
        started.push('wait');
        const stop = (): void => {
          cancelled.push('wait');
          resolve('cancelled');
        };
        if (ctx.signal.aborted) stop();
        else ctx.signal.addEventListener('abort', stop, { once: true });
      }),
  });
  const base = [review, standup, translate, summarize, wait];
  const prompts = livePrompts(base);
  const server = createServer({
    name: 'contract',
    version: '1.0.0',
    prompts,
    resources: staticResources({ resources: [readme], templates: [page] }),
    pageSize: 2,
  });
  return {
    server,
    started,
    cancelled,
    change() {
      prompts.set([...base, definePrompt({ name: 'added', description: 'Added while serving.', output: 'Added.' })]);
    },
  };
}
