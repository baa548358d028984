import { createServer, definePrompt, defineResourceTemplate } from 'skillport';
import { serveStdio } from 'skillport/stdio';

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

const notes = defineResourceTemplate({
  uriTemplate: 'notes://{topic}',
  name: 'notes',
  mimeType: 'text/markdown',
  complete: { topic: ['design', 'roadmap'] },
  read: (_uri, { topic }) => `# Notes on ${topic}`, // { topic: string }, typed from the template
});

// Definitions go to createServer as arrays; resources mix fixed URIs and templates.
const server = createServer({ name: 'my-prompts', version: '1.0.0', prompts: [review], resources: [notes] });
await serveStdio(server).done;
