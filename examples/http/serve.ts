// Serve prompts over Streamable HTTP on 127.0.0.1 (port 3000, or $PORT), with a graceful stop.
import { createServer, definePrompt } from 'skillport';
import { serveHttp } from 'skillport/http';

const hello = definePrompt({ name: 'hello', description: 'Say hello.', get: () => 'Hello!' });
const server = createServer({ name: 'my-prompts', version: '1.0.0', prompts: [hello] });

const http = await serveHttp(server, { port: Number(process.env.PORT ?? 3000) });
console.error(`MCP endpoint: ${http.url.href}`);
process.once('SIGTERM', () => void http.close().then(() => server.close()));
