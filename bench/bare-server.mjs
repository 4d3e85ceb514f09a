// The yardstick of bench/http.bench.ts: a bare Fastify route in its own process, answering a body the
// size of GET /api/wallet's, so a figure of ours reads as a share of what Fastify alone does here.
//   node bench/bare-server.mjs <port>
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 3499);
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ balance: 19750.5, totalDeposited: 25000, totalWithdrawn: 0 }));
await app.listen({ port, host: '127.0.0.1' });
console.log('ready');
