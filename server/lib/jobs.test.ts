import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/test-database';
import { Jobs } from './jobs';

const silentLog = { error() {} } as unknown as FastifyBaseLogger;

describe('the job queue', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('starts on several instances at once on a fresh database, creating each queue once', async () => {
    const instances = await Promise.all(
      Array.from({ length: 4 }, () => Jobs.start({ executeSql: database.executeSql, log: silentLog })),
    );
    try {
      const { rows } = await database.executeSql('SELECT name FROM pgboss.queue ORDER BY name');
      expect(rows).toEqual([
        { name: 'dispute-escalation' },
        { name: 'escrow-half-expiry' },
        { name: 'milestone-auto-release' },
        { name: 'saved-search-mail' },
      ]);
    } finally {
      await Promise.all(instances.map((jobs) => jobs.stop()));
    }
  });
});
