// An OTLP/HTTP receiver that reads every batch and keeps nothing, for
// bench/tracing.mjs: a process of its own, as a collector is, so that the
// load generator's event loop is not the one reading the spans.
// GET /received answers what it took so far: { posts, bytes }.
//   node bench/servers/otlp-sink.mjs http PORT
import { createServer } from 'node:http';
import { onTerm, readArgs, ready } from './_common.mjs';

const { port } = readArgs();
const received = { posts: 0, bytes: 0 };
const server = createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
    return;
  }
  request.on('data', (chunk) => {
    received.bytes += chunk.length;
  });
  request.on('end', () => {
    received.posts++;
    response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => ready(`http://127.0.0.1:${server.address().port}`));
onTerm(() => new Promise((done) => server.close(done)));
