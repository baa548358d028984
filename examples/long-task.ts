import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, defineTool } from 'skillport';
import { serveHttp } from 'skillport/http';

// A tool that takes minutes. With `task`, a client that can take a task gets
// one at once, polls it, may drop its connection, and reads the result later.
const report = defineTool({
  name: 'build_report',
  description: 'Builds the quarterly report (a few minutes).',
  task: 'optional',
  call: async (_args, ctx) => {
    for (let step = 1; step <= 5; step++) {
      await sleep(30_000, undefined, { signal: ctx.signal }); // aborted by tasks/cancel
      // A question mid-task: the task waits in `input_required` until the client answers.
      if (step === 3) {
        const answer = await ctx.input('include_drafts', {
          method: 'elicitation/create',
          params: { message: 'Include draft figures?', requestedSchema: { type: 'object', properties: { yes: { type: 'boolean' } } } },
        });
        if (answer.action !== 'accept') return 'Report built without drafts.';
      }
    }
    return 'Report built.';
  },
});

const server = createServer({ name: 'reports', version: '1.0.0', tools: [report], tasks: { ttlMs: 24 * 3_600_000 } });
await serveHttp(server, { port: 3000 });
