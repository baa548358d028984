// The tools the conformance suite's session scenarios call to make the server
// ask the client mid-request (tools-call-sampling, tools-call-elicitation,
// elicitation-sep1034-defaults, elicitation-sep1330-enums), written as a
// library user would: `await ctx.input(key, request)`. On a 2025 session the
// library sends the question as a request of the server's own and waits for
// the client's response; a client without the capability gets the library's
// missing-capability error, which the scenarios' notes ask for.
import { defineTool } from '../../dist/index.js';

const elicit = (message, properties, required) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties, ...(required ? { required } : {}) } },
});

const completed = (answer) => `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

export const sessionInputTools = [
  defineTool({
    name: 'test_sampling',
    description: "Asks the client's model to answer a prompt.",
    inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
    call: async ({ prompt }, ctx) => {
      const answer = await ctx.input('sampling', {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
      });
      return `LLM response: ${answer.content?.text ?? JSON.stringify(answer.content)}`;
    },
  }),
  defineTool({
    name: 'test_elicitation',
    description: 'Asks the user for a name and an email address.',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    call: async ({ message }, ctx) => {
      const answer = await ctx.input(
        'user',
        elicit(message, { username: { type: 'string', description: "User's response" }, email: { type: 'string', description: "User's email address" } }, [
          'username',
          'email',
        ]),
      );
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    },
  }),
  defineTool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks with a default for every primitive type (SEP-1034).',
    call: async (_args, ctx) =>
      completed(
        await ctx.input(
          'defaults',
          elicit('Please review and update the form fields with defaults', {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          }),
        ),
      ),
  }),
  defineTool({
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks with every kind of enum (SEP-1330).',
    call: async (_args, ctx) =>
      completed(
        await ctx.input(
          'enums',
          elicit('Please select options from the enum fields', {
            untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              description: 'Select one option with titles',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: {
              type: 'string',
              description: 'Select one option (legacy)',
              enum: ['opt1', 'opt2', 'opt3'],
              enumNames: ['Option One', 'Option Two', 'Option Three'],
            },
            untitledMulti: {
              type: 'array',
              description: 'Select multiple options',
              minItems: 1,
              maxItems: 3,
              items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            },
            titledMulti: {
              type: 'array',
              description: 'Select multiple options with titles',
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          }),
        ),
      ),
  }),
];
