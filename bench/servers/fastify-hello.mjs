// Baseline 1b: the same small JSON as hello.mjs from a bare Fastify app (no plugins, a response
// schema as our routes have), so the framework's own cost is told apart from the service's.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get(
  '/',
  { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } },
  async () => ({ hello: 'world' }),
);
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.send?.('listening');
