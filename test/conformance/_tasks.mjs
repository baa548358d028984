// The fixture tools of the Tasks extension's scenarios (conformance
// 0.2.0-alpha.12, tasks-*; SEP-2663), with the names, arguments and
// behaviour those scenarios ask for: a tool that never runs as a task
// (greet), tools that may (slow_compute, protocol_error_job, confirm_delete,
// multi_input) or must (failing_job, test_tool_with_task).
import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool, ErrorCode, ProtocolError } from '../../dist/index.js';

const text = (name, description) => ({ type: 'string', description: description ?? name });

/** A form with the given fields, asked under `key`. */
const form = (message, properties) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties, required: Object.keys(properties) } },
});

export const taskTools = [
  defineTool({
    name: 'greet',
    description: 'Greets someone at once, never as a task',
    inputSchema: { type: 'object', properties: { name: text('name') }, required: ['name'] },
    call: ({ name }) => `Hello, ${name}!`,
  }),
  defineTool({
    name: 'slow_compute',
    description: 'Sleeps for `seconds`, then answers; runs as a task when the client can take one',
    task: 'optional',
    inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, label: text('label') }, required: ['seconds'] },
    call: async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, undefined, { signal: ctx.signal });
      return `Computed ${label ?? 'a result'} in ${seconds} s`;
    },
  }),
  defineTool({
    name: 'failing_job',
    description: 'Reports a tool error after about a second; only as a task',
    task: 'required',
    call: async (_args, ctx) => {
      await sleep(1000, undefined, { signal: ctx.signal });
      throw new Error('The job failed, as it always does');
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    description: 'Fails with a protocol error; runs as a task when the client can take one',
    task: 'optional',
    call: async () => {
      throw new ProtocolError(ErrorCode.InternalError, 'The job broke down');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    description: 'Asks the user to confirm, then says what it did',
    task: 'optional',
    inputSchema: { type: 'object', properties: { filename: text('filename') }, required: ['filename'] },
    call: async ({ filename }, ctx) => {
      const answer = await ctx.input('confirm', form(`Delete ${filename}?`, { confirm: { type: 'boolean', description: 'Delete it' } }));
      return answer.action === 'accept' && answer.content?.confirm !== false ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  }),
  defineTool({
    name: 'multi_input',
    description: 'Asks two questions at once',
    task: 'optional',
    call: async (_args, ctx) => {
      const fields = { name: text('name'), confirm: { type: 'boolean', description: 'Confirm' } };
      const [first, second] = await Promise.all([ctx.input('first', form('First?', fields)), ctx.input('second', form('Second?', fields))]);
      return `Got ${first.content?.name ?? first.action} and ${second.content?.name ?? second.action}`;
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    description: 'Asks for a name before its task starts, then greets it from the task',
    task: 'required',
    prepare: async (_args, ctx) => {
      const answer = await ctx.input('user_name', form('Your name?', { name: text('name') }));
      return answer.action === 'accept' ? String(answer.content?.name ?? 'nobody') : 'nobody';
    },
    call: (_args, _ctx, name) => `Hello from the task, ${name}!`,
  }),
];
