import { createServer, defineTool, staticTools } from 'skillport';
import { serveStdio } from 'skillport/stdio';
import { z } from 'zod';

// Asks the user mid-call with a zod schema: the client gets its JSON Schema,
// and an accepted answer arrives validated and typed.
const print = defineTool({
  name: 'print_report',
  description: 'Prints the report, after the user confirms.',
  call: async (_args, ctx) => {
    if (!ctx.can.input('elicitation/create')) return 'Printed one copy (no one to ask).';
    const answer = await ctx.input('confirm_print', {
      method: 'elicitation/create',
      params: { message: 'Print the report?', requestedSchema: z.object({ confirm: z.boolean(), copies: z.number().int().min(1).max(10) }) },
    });
    if (answer.action !== 'accept' || !answer.content.confirm) return 'Not printed.';
    ctx.log('info', `printing ${answer.content.copies} copies`);
    return `Printed ${answer.content.copies} copies.`;
  },
});

await serveStdio(createServer({ name: 'printer', version: '1.0.0', tools: staticTools([print]) }));
