import type { FastifyBaseLogger } from 'fastify';
import type { Redis, RedisOptions } from 'ioredis';

/** How long start-up waits for Redis before it goes on without it (ioredis keeps trying). */
const startupWaitMs = 3_000;

/**
 * The instance's Redis clients (ioredis, loaded only when there is a REDIS_URL). Redis is a helper here,
 * never a dependency of an answer: while it is away HTTP keeps working (rate limits fall back to each
 * instance's memory, realtime to each instance's own sockets), each client reconnects by itself, and
 * every client's state is what /api/ready reports as `redis`.
 *
 * Every key and channel the product uses on it starts with REDIS_PREFIX (`config.redisPrefix`): the
 * Socket.IO adapter's channels (`<prefix>:socket.io…`) and the rate limits' counters (`<prefix>:limit:…`),
 * so deployments and test groups sharing one Redis stay apart.
 */
export class RedisConnections {
  private readonly clients = new Set<Redis>();

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * A client that reconnects forever (every 0.1–2 s), logging each outage once rather than every retry.
   * `queueWhileAway: false` makes commands fail at once while Redis is away (the caller falls back);
   * true holds them until it is back (subscriptions).
   */
  async connect(name: string, options: { queueWhileAway: boolean }): Promise<Redis> {
    const { Redis } = await import('ioredis');
    const client = new Redis(this.url, {
      lazyConnect: true,
      enableOfflineQueue: options.queueWhileAway,
      maxRetriesPerRequest: options.queueWhileAway ? null : 1,
      retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
      connectTimeout: 2_000,
    } satisfies RedisOptions);
    let away = false;
    client.on('error', (error) => {
      if (!away) this.log.error({ err: error }, `${name}: Redis is not answering; retrying`);
      away = true;
    });
    client.on('ready', () => {
      if (away) this.log.info(`${name}: Redis is back`);
      away = false;
    });
    client.on('end', () => this.clients.delete(client));
    this.clients.add(client);
    // Redis away at start must not keep the instance from serving: it connects when Redis is back.
    await Promise.race([
      client.connect().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, startupWaitMs).unref()),
    ]);
    return client;
  }

  /** 'up' when every client is connected, 'down' when any is not. */
  get state(): 'up' | 'down' {
    for (const client of this.clients) if (client.status !== 'ready') return 'down';
    return 'up';
  }

  async close(client: Redis) {
    this.clients.delete(client);
    await client.quit().catch(() => client.disconnect());
  }
}
