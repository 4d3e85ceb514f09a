import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * A connected Redis client (ioredis loaded only when there is a REDIS_URL); errors are logged, it reconnects.
 * Every key and channel the product uses on it starts with REDIS_PREFIX (`config.redisPrefix`): the
 * Socket.IO adapter's channels (`<prefix>:socket.io…`) and the rate limits' counters (`<prefix>:limit:…`),
 * so deployments and test groups sharing one Redis stay apart.
 */
export async function connectRedis(url: string, log: FastifyBaseLogger, name = 'redis'): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  client.on('error', (error) => log.error({ err: error }, `${name} error`));
  await client.connect();
  return client;
}
