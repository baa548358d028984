// The conformance fixture's input-required tools and prompt (2026-07-28
// basic/patterns/mrtr, SEP-2322): the names, keys and questions the
// input-required-result-* scenarios of conformance 0.2.0-alpha.12 ask for,
// plus server-stateless's two probes that need client input
// (test_missing_capability, test_streaming_elicitation). Each is written the
// way a library user would: `await ctx.input(key, request)` and use the
// answer. The library ends the round with an InputRequiredResult, seals the
// answers so far in requestState, and runs the handler again on the retry.
//
// On 2025 sessions ctx.input sends the same questions as requests of the
// server's own (see _session-input.mjs for the tools the session scenarios
// call); the scenarios that call these run at 2026-07-28 only.
import { definePrompt, defineTool } from '../../dist/index.js';

/** A one-field text form, as the scenarios' descriptions write them. */
function form(message, field, type = 'string') {
  return { method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: { [field]: { type } }, required: [field] } } };
}

const ASK_NAME = form('What is your name?', 'name');
const CONFIRM = form('Please confirm', 'ok', 'boolean');
const ROOTS = { method: 'roots/list', params: {} };
const sample = (text, maxTokens) => ({
  method: 'sampling/createMessage',
  params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens },
});

/** The text of a sampling answer (CreateMessageResult content is one block or a list). */
function sampledText(answer) {
  const blocks = Array.isArray(answer.content) ? answer.content : [answer.content];
  return blocks.map((block) => (block?.type === 'text' ? block.text : `[${block?.type}]`)).join(' ');
}

/** What an elicitation answer says about `field`. */
function field(answer, name) {
  return answer.action === 'accept' ? String(answer.content?.[name]) : `(${answer.action})`;
}

export const inputTools = [
  // basic-elicitation, result-type, missing-input-response, ignore-extra-params, validate-input.
  defineTool({
    name: 'test_input_required_result_elicitation',
    description: 'Asks the user for their name, then greets them',
    call: async (_args, ctx) => `Hello, ${field(await ctx.input('user_name', ASK_NAME), 'name')}!`,
  }),
  // basic-sampling.
  defineTool({
    name: 'test_input_required_result_sampling',
    description: "Asks the client's model for the capital of France",
    call: async (_args, ctx) => `The model answered: ${sampledText(await ctx.input('capital_question', sample('What is the capital of France?', 100)))}`,
  }),
  // basic-list-roots.
  defineTool({
    name: 'test_input_required_result_list_roots',
    description: 'Asks the client for its roots and lists them',
    call: async (_args, ctx) => {
      const { roots } = await ctx.input('client_roots', ROOTS);
      return `The client's roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`;
    },
  }),
  // request-state. The library checks a retry's requestState (HMAC, method,
  // params, lifetime) before the handler runs and refuses a bad one with
  // -32602, so a handler that gets here was given a sound one or none.
  defineTool({
    name: 'test_input_required_result_request_state',
    description: 'Asks for a confirmation; the retry carries the sealed requestState',
    call: async (_args, ctx) => `state-ok: confirmed ${field(await ctx.input('confirm', CONFIRM), 'ok')}`,
  }),
  // multiple-input-requests: three questions of three kinds in one round.
  // Each ctx.input records its question before the first rejection, so
  // Promise.all asks all three at once.
  defineTool({
    name: 'test_input_required_result_multiple_inputs',
    description: 'Asks the user, the model and the roots in one round',
    call: async (_args, ctx) => {
      const [name, greeting, { roots }] = await Promise.all([
        ctx.input('user_name', ASK_NAME),
        ctx.input('greeting', sample('Generate a greeting', 50)),
        ctx.input('client_roots', ROOTS),
      ]);
      return `${sampledText(greeting)} ${field(name, 'name')} (${roots.length} roots)`;
    },
  }),
  // multi-round: the second question is asked only once the first is
  // answered, so each round's requestState carries more.
  defineTool({
    name: 'test_input_required_result_multi_round',
    description: 'Asks two questions, one per round',
    call: async (_args, ctx) => {
      const name = await ctx.input('step1', form('Step 1: What is your name?', 'name'));
      const color = await ctx.input('step2', form('Step 2: What is your favorite color?', 'color'));
      return `${field(name, 'name')} likes ${field(color, 'color')}`;
    },
  }),
  // tampered-state: a retry whose requestState fails the HMAC check is -32602.
  defineTool({
    name: 'test_input_required_result_tampered_state',
    description: 'Asks for a confirmation; a tampered requestState on the retry is refused',
    call: async (_args, ctx) => `confirmed ${field(await ctx.input('confirm', CONFIRM), 'ok')}`,
  }),
  // capability-check: ask only what the client declared (here it declares
  // sampling alone, so only the sampling question goes out).
  defineTool({
    name: 'test_input_required_result_capabilities',
    description: 'Asks the user, the model or the roots, whichever the client declared',
    call: async (_args, ctx) => {
      const declared = ctx.client.capabilities;
      const asked = [
        declared.elicitation ? ctx.input('user_name', ASK_NAME).then((answer) => field(answer, 'name')) : undefined,
        declared.sampling ? ctx.input('greeting', sample('Generate a greeting', 50)).then(sampledText) : undefined,
        declared.roots ? ctx.input('client_roots', ROOTS).then(({ roots }) => `${roots.length} roots`) : undefined,
      ].filter(Boolean);
      if (asked.length === 0) return 'The client declared none of elicitation, sampling and roots: nothing to ask';
      return (await Promise.all(asked)).join('; ');
    },
  }),
  // server-stateless: needs sampling; a client that did not declare it gets
  // -32021 naming { sampling: {} }, HTTP 400.
  defineTool({
    name: 'test_missing_capability',
    description: "Needs the client's model (sampling); -32021 when the client did not declare it",
    call: async (_args, ctx) => `The model answered: ${sampledText(await ctx.input('question', sample('Say hello', 20)))}`,
  }),
  // server-stateless: asks for input mid-call; the answer stream must carry
  // the InputRequiredResult, never a request of the server's own.
  defineTool({
    name: 'test_streaming_elicitation',
    description: 'Asks the user for their name mid-call (an InputRequiredResult on 2026-07-28)',
    call: async (_args, ctx) => `Hello, ${field(await ctx.input('user_name', ASK_NAME), 'name')}!`,
  }),
];

// non-tool-request: input-required on prompts/get.
export const inputPrompts = [
  definePrompt({
    name: 'test_input_required_result_prompt',
    description: 'Asks the user what context to use, then builds the prompt',
    get: async (_args, ctx) => {
      const answer = await ctx.input('user_context', form('What context should the prompt use?', 'context'));
      return `Use this context: ${field(answer, 'context')}`;
    },
  }),
];
