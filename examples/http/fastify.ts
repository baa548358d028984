// Mount skillport in Fastify with toNodeHandler on the raw request and reply.
//
//   import Fastify from 'fastify';
//   const app = Fastify();
//   await app.register(mcpPlugin);
//
// The plugin leaves JSON bodies unparsed in its own scope, so the handler can
// read the request stream, and hijacks the reply so Fastify does not answer
// too. Fastify is not a dependency of skillport; the interfaces below are the
// slice of its API this example uses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, definePrompt } from 'skillport';
import { createHttpHandler, toNodeHandler } from 'skillport/http';

interface FastifyLike {
  addContentTypeParser(type: string, parser: (request: unknown, payload: unknown, done: (error: Error | null, body?: unknown) => void) => void): unknown;
  all(path: string, handler: (request: { raw: IncomingMessage }, reply: { raw: ServerResponse; hijack(): void }) => void): unknown;
}

const hello = definePrompt({ name: 'hello', description: 'Say hello.', get: () => 'Hello!' });
const server = createServer({ name: 'my-prompts', version: '1.0.0', prompts: [hello] });
const handle = toNodeHandler(createHttpHandler(server));

export async function mcpPlugin(app: FastifyLike): Promise<void> {
  app.addContentTypeParser('application/json', (_request, _payload, done) => done(null));
  app.all('/mcp', (request, reply) => {
    reply.hijack();
    handle(request.raw, reply.raw);
  });
}
