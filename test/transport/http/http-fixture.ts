/**
 * The in-process server behind the Streamable HTTP tests: prompts with
 * arguments, completions, a slow prompt that records cancellation, a prompt
 * that throws, a non-ASCII prompt name (for Base64 `Mcp-Name`), resources
 * that change, and pagination with two items per page.
 */
import { createServer, definePrompt, defineResource, defineResourceTemplate, livePrompts, liveResources, type Server } from '../../../src/index.js';

export interface Fixture {
  server: Server;
  /** Names of prompts whose provider started. */
  started: string[];
  /** Names of prompts whose request was cancelled. */
  cancelled: string[];
  /** Adds a prompt and updates test://watched: a prompt list change and a resource update. */
  change(): void;
  /** Lets the `gated` prompt answer. */
  release(): void;
}

export const PROMPT_NAMES = ['simple', 'with_args', 'slow', 'gated', 'fails', 'café'];

export function createFixture(): Fixture {
  const started: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const cancelled: string[] = [];
  const base = [
    definePrompt({ name: 'simple', description: 'No arguments.', get: () => 'Hello.' }),
    definePrompt({
      name: 'with_args',
      description: 'Two arguments.',
      arguments: [
        { name: 'arg1', required: true, complete: ['alpha', 'beta', 'alphabet'] },
        { name: 'arg2', required: true },
      ],
      get: ({ arg1, arg2 }) => `arg1=${arg1} arg2=${arg2}`,
    }),
    definePrompt({
      name: 'slow',
      description: 'Waits until cancelled.',
      get: (_args, ctx) =>
        new Promise<string>((resolve) => {
          started.push('slow');
          const done = (): void => {
            cancelled.push('slow');
            resolve('cancelled');
          };
          if (ctx.signal.aborted) return done();
          ctx.signal.addEventListener('abort', done, { once: true });
        }),
    }),
    definePrompt({
      name: 'gated',
      description: 'Answers once the test releases it.',
      get: async () => {
        started.push('gated');
        await gate;
        return 'released';
      },
    }),
    definePrompt({
      name: 'fails',
      description: 'Throws.',
      get: () => {
        throw new Error('secret detail');
      },
    }),
    definePrompt({ name: 'café', description: 'A name that is not ASCII.', get: () => 'Bonjour.' }),
  ];
  const prompts = livePrompts(base);
  let version = 1;
  const staticText = defineResource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'Text.',
    mimeType: 'text/plain',
    read: () => 'static text',
  });
  const watched = defineResource({ uri: 'test://watched', name: 'watched', description: 'Changes.', mimeType: 'text/plain', read: () => `version ${version}` });
  const template = defineResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    description: 'By id.',
    mimeType: 'application/json',
    read: (_uri, { id }) => JSON.stringify({ id }),
  });
  const resources = liveResources({ resources: [staticText, watched], templates: [template] });
  const server = createServer({ name: 'http-fixture', version: '1.0.0', prompts, resources, pageSize: 2, cache: { ttlMs: 0 } });
  return {
    server,
    started,
    cancelled,
    release,
    change() {
      prompts.set([...base, definePrompt({ name: 'added', description: 'Added.', get: () => 'added' })]);
      version++;
      resources.updated('test://watched');
    },
  };
}
