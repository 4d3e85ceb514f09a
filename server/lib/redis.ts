import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/** A connected Redis client (ioredis loaded only when there is a REDIS_URL); errors are logged, it reconnects. */
export async function connectRedis(url: string, log: FastifyBaseLogger, name = 'redis'): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  client.on('error', (error) => log.error({ err: error }, `${name} error`));
  await client.connect();
  return client;
}
