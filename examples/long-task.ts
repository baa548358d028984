import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, defineTool } from 'skillport';
import { serveHttp } from 'skillport/http';
import { z } from 'zod';

// A tool that takes minutes. With `task`, a client that can take a task gets
// one at once, polls it, may drop its connection, and reads the result later.
const report = defineTool({
  name: 'build_report',
  description: 'Builds the quarterly report (a few minutes).',
  task: 'optional',
  inputSchema: z.object({ minutes: z.number().min(0).max(60).default(3) }),
  call: async ({ minutes }, ctx) => {
    for (let step = 1; step <= 5; step++) {
      await sleep((minutes * 60_000) / 5, undefined, { signal: ctx.signal }); // aborted by tasks/cancel
      // A question mid-task: the task waits in `input_required` until the client answers.
      if (step === 3) {
        const answer = await ctx.input('include_drafts', {
          method: 'elicitation/create',
          params: { message: 'Include draft figures?', requestedSchema: z.object({ yes: z.boolean() }) },
        });
        if (answer.action !== 'accept' || !answer.content.yes) return 'Report built without drafts.';
      }
    }
    return 'Report built with drafts.';
  },
});

const server = createServer({ name: 'reports', version: '1.0.0', tools: [report], tasks: { ttlMs: 24 * 3_600_000 } });
const http = await serveHttp(server, { port: Number(process.env.PORT ?? 3000) });
console.error(`MCP endpoint: ${http.url.href}`);
