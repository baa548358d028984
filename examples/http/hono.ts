// Mount the web-standard handler in Hono (or any Fetch-API framework:
// Bun.serve, Deno.serve, a Cloudflare Worker's fetch).
//
//   import { Hono } from 'hono';
//   const app = new Hono();
//
// Hono is not a dependency of skillport; the interface below is the slice of
// its API this example uses, so the file type-checks without it.
import { createServer, definePrompt } from 'skillport';
import { createHttpHandler } from 'skillport/http';

interface HonoLike {
  all(path: string, handler: (c: { req: { raw: Request } }) => Response | Promise<Response>): unknown;
}

const hello = definePrompt({ name: 'hello', description: 'Say hello.', get: () => 'Hello!' });
const server = createServer({ name: 'my-prompts', version: '1.0.0', prompts: [hello] });

/** Routes /mcp (and the OAuth metadata paths, when a token is set) to skillport. */
export function mountMcp(app: HonoLike): void {
  // Behind a real hostname, allow it: the default allows only localhost Host headers.
  const handler = createHttpHandler(server, { allowedHosts: ['mcp.example.com'] });
  app.all('/mcp', (c) => handler.fetch(c.req.raw));
  app.all('/.well-known/oauth-protected-resource/*', (c) => handler.fetch(c.req.raw));
}
