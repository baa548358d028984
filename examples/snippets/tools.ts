// The tool fragments docs/library.md shows, whole and type-checked: each
// fragment there is a run of lines of this file (test/architecture/docs.test.ts).
import { createServer, defineTool } from 'skillport';
import { z } from 'zod';

/** Stands for whatever the tool would ask; the docs leave it out. */
async function lookUp(city: string): Promise<number> {
  return city.length;
}

const weather = defineTool({
  name: 'weather',
  description: 'Current temperature of a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
  call: async ({ city }) => ({ structuredContent: { celsius: await lookUp(city) } }),
});

const greet = defineTool({
  name: 'greet',
  call: async (_args, ctx) => {
    const answer = await ctx.input('user_name', {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    });
    return answer.action === 'accept' ? `Hello, ${answer.content?.name}.` : 'Hello.';
  },
});

export const server = createServer({ name: 'tools', version: '1.0.0', tools: [weather, greet] });
