import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, defineTool } from 'skillport';
import { serveStdio } from 'skillport/stdio';
import { z } from 'zod';

// A tool with a zod schema that asks the user to confirm, reports progress
// and logs. The client gets the JSON Schema of the arguments and of the
// question; both arrive validated and typed.
const print = defineTool({
  name: 'print_report',
  description: 'Prints a report, after the user confirms.',
  inputSchema: z.object({ report: z.string().min(1), pages: z.number().int().min(1).max(50) }),
  call: async ({ report, pages }, ctx) => {
    let copies = 1;
    if (ctx.can.input('elicitation/create')) {
      const answer = await ctx.input('confirm_print', {
        method: 'elicitation/create',
        params: { message: `Print ${report}?`, requestedSchema: z.object({ confirm: z.boolean(), copies: z.number().int().min(1).max(10) }) },
      });
      if (answer.action !== 'accept' || !answer.content.confirm) return 'Not printed.';
      copies = answer.content.copies;
    }
    for (let page = 1; page <= pages; page++) {
      await sleep(5, undefined, { signal: ctx.signal }); // aborted when the client cancels
      ctx.progress(page, pages, `Page ${page} of ${pages}`); // sent when the client asked for progress
    }
    ctx.log('info', `Printed ${report}`); // sent at the level the client asked for
    return `Printed ${copies} ${copies === 1 ? 'copy' : 'copies'} of ${report}.`;
  },
});

await serveStdio(createServer({ name: 'printer', version: '1.0.0', tools: [print] })).done;
