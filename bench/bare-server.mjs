// The yardstick of bench/http.bench.ts: a bare Fastify route in its own process, answering a body the
// size of GET /api/wallet's, so a figure of ours reads as a share of what Fastify alone does here.
// A second route answers a body stored beforehand (PUT /same-body/<name>, then GET it): the same bytes
// one of our calls answers, so a large answer (a page of 50 deals) can also be read against what
// Fastify and the load generator do with that many bytes.
//   node bench/bare-server.mjs <port>
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 3499);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
app.get('/bare', async () => ({ balance: 19750.5, totalDeposited: 25000, totalWithdrawn: 0 }));
const bodies = new Map();
app.put('/same-body/:name', async (request) => {
  bodies.set(request.params.name, request.body);
  return { stored: true };
});
app.get('/same-body/:name', async (request) => bodies.get(request.params.name));
await app.listen({ port, host: '127.0.0.1' });
console.log('ready');
