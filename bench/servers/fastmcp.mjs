// FastMCP 4.x (on the SDK v1 underneath): addPrompt with argument completers,
// httpStream transport (sessions, its default) on 127.0.0.1, or stdio.
import { FastMCP } from 'fastmcp';
import { onTerm, promptSet, readArgs, ready, unavailable } from './_common.mjs';

const { mode, port } = readArgs();
const { prompts, values } = promptSet();

let server;
try {
  server = new FastMCP({ name: 'bench', version: '1.0.0' });
  for (const p of prompts) {
    server.addPrompt({
      name: p.name,
      description: p.description,
      arguments: p.arguments.map((a) => ({
        name: a.name,
        description: a.description,
        required: a.required,
        ...(a.completes
          ? {
              complete: async (value) => {
                const matches = values.filter((v) => v.startsWith(value));
                return { values: matches.slice(0, 100), total: matches.length, hasMore: matches.length > 100 };
              },
            }
          : {}),
      })),
      load: async (args) => p.render(args ?? {}),
    });
  }
} catch (error) {
  unavailable(error.message);
}

if (mode === 'stdio') {
  onTerm(() => server.stop());
  await server.start({ transportType: 'stdio' });
} else {
  await server.start({ transportType: 'httpStream', httpStream: { host: '127.0.0.1', port, endpoint: '/mcp' } });
  onTerm(() => server.stop());
  ready(`http://127.0.0.1:${port}/mcp`);
}
