// Mount skillport in Express with toNodeHandler.
//
//   import express from 'express';
//   const app = express();
//
// Register it on the same path as the handler's `path` option (default /mcp),
// and before any body parser (express.json() would consume the body the
// handler reads). Express is not a dependency of skillport; the interface
// below is the slice of its API this example uses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, definePrompt } from 'skillport';
import { createHttpHandler, toNodeHandler } from 'skillport/http';

interface ExpressLike {
  all(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): unknown;
}

const hello = definePrompt({ name: 'hello', description: 'Say hello.', get: () => 'Hello!' });
const server = createServer({ name: 'my-prompts', version: '1.0.0', prompts: [hello] });

export function mountMcp(app: ExpressLike): void {
  app.all('/mcp', toNodeHandler(createHttpHandler(server)));
}
