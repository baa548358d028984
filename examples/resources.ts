import { createServer, defineResource, defineResourceTemplate, liveResources } from 'skillport';
import { serveStdio } from 'skillport/stdio';

// A fixed resource that changes (subscribers are told), and a template whose
// second variable completes from the first.
const teams: Record<string, string[]> = { platform: ['api', 'billing'], mobile: ['android', 'ios'] };
let status = 'All systems normal.';

const statusPage = defineResource({ uri: 'status://now', name: 'status', mimeType: 'text/plain', read: () => status });
const serviceDocs = defineResourceTemplate({
  uriTemplate: 'docs://{team}/{service}',
  name: 'service-docs',
  mimeType: 'text/markdown',
  complete: {
    team: Object.keys(teams),
    // context.arguments holds what the client already filled in.
    service: (value, context) => (teams[context.arguments?.team ?? ''] ?? []).filter((service) => service.startsWith(value)),
  },
  read: (_uri, { team, service }) => `# ${service}\n\nOwned by the ${team} team.`,
});

const resources = liveResources([statusPage, serviceDocs]);
const server = createServer({ name: 'service-docs', version: '1.0.0', resources });

// The status is checked every second; whoever subscribed to it is told of each new one.
setInterval(() => {
  status = `Checked at ${new Date().toISOString()}: all systems normal.`;
  resources.updated('status://now');
}, 1000).unref();

await serveStdio(server).done;
