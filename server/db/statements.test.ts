import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database';
import type { Database } from './client';
import { poolOf } from './driver';
import { type NamedStatement, queryNamed, registeredStatements, typeOids } from './prepared';

/**
 * Every statement written in SQL (db/prepared.ts `defineStatement`, and each statement carrying a part)
 * runs here on the migrated schema, as the server's restricted role, inside a transaction rolled back
 * afterwards: PostgreSQL must accept it, and the columns it answers (names and types, known even for no
 * row) must be those it declares. A column renamed in the schema or in a statement fails here. Runs on the
 * embedded server and, in CI, on DATABASE_URL.
 */

const serverFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every module of the server that defines a statement or a part, imported: each registers its own. */
async function importStatementModules(): Promise<string[]> {
  const files = (await readdir(serverFolder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.includes(`${path.sep}node_modules${path.sep}`));
  const defining: string[] = [];
  for (const file of files) {
    if (file === path.join(serverFolder, 'db', 'prepared.ts')) continue;
    const text = await readFile(file, 'utf8');
    if (/\bdefineStatement(Part)?\(/.test(text)) defining.push(file);
  }
  for (const file of defining) await import(pathToFileURL(file).href);
  return defining.map((file) => path.relative(serverFolder, file));
}

/** Rows the samples point at, made in the transaction each statement runs in. */
type Fixture = { alice: number; bob: number; mia: number; dealId: number };

async function seed(client: pg.PoolClient): Promise<Fixture> {
  const user = async (name: string) =>
    (
      await client.query<{ id: number }>(
        `insert into users (username, email, full_name, password_hash)
         values ($1, $1 || '@statements.test', 'Sample ' || $1, 'not a hash') returning id`,
        [`statements_${name}`],
      )
    ).rows[0]!.id;
  const alice = await user('alice');
  const bob = await user('bob');
  const mia = await user('mia');
  const dealId = (
    await client.query<{ id: number }>(
      `insert into deals (title, description, budget_cents, timeline, creator_id, counterpart_id, dealmaker_id)
       values ('Sample deal', 'For the statements test', 100000, '1 month', $1, $2, $3) returning id`,
      [alice, bob, mia],
    )
  ).rows[0]!.id;
  await client.query('insert into wallets (user_id, balance_cents) values ($1, 5000), ($2, 0)', [alice, bob]);
  await client.query(
    `insert into notifications (user_id, kind, deal_id, actor_id, message) values ($1, 'deal-updated', $2, $3, 'Seeded')`,
    [bob, dealId, alice],
  );
  await client.query(
    `insert into messages (deal_id, sender_id, content, client_id) values ($1, $2, 'Seeded', 'seeded-1')`,
    [dealId, alice],
  );
  return { alice, bob, mia, dealId };
}

const requester = { actorId: '', actorUsername: '', address: '' };
const entry = (f: Fixture) => ({
  dealId: f.dealId,
  kind: 'deal-updated',
  actorId: f.alice,
  message: 'Sample entry',
  details: { sample: true },
});
const notices = (f: Fixture) => ({
  userIds: [f.bob, f.mia],
  kinds: ['deal-updated', 'deal-updated'],
  dealIds: [f.dealId, null],
  actorIds: [f.alice, null],
  messages: ['Sample notice', 'Another'],
});

/**
 * Each statement's parameters, and how many rows they answer on the fixture (so that rows, and a carried
 * part's rows, go through the decoder too). A statement without a sample fails the test.
 */
const samples: Record<
  string,
  (f: Fixture) => { values: Record<string, unknown>; part?: Record<string, unknown>; rows: number }
> = {
  deal_event_insert: (f) => ({ values: entry(f), rows: 0 }),
  notifications_insert: (f) => ({ values: notices(f), rows: 2 }),
  notifications_insert_with_deal_event: (f) => ({ values: notices(f), part: entry(f), rows: 2 }),
  notifications_unread_counts: (f) => ({ values: { userIds: [f.bob, f.alice] }, rows: 1 }),
  notification_mail_claim: (f) => ({
    values: { userId: f.bob, kind: 'escrow-paid', dealKey: f.dealId },
    rows: 1,
  }),
  message_send_with_chat_burst: (f) => ({
    values: {
      dealId: f.dealId,
      creatorId: f.alice,
      counterpartId: f.bob,
      dealmakerId: f.mia,
      title: 'Sample deal',
      senderId: f.alice,
      contents: ['Sample message', 'Another one'],
      clientIds: ['sample-1', null],
    },
    part: { recipients: [f.bob, f.mia], dealId: f.dealId, actorId: f.alice, message: 'Sample notice' },
    rows: 2,
  }),
  message_history_older: (f) => ({
    values: { dealId: f.dealId, viewerId: f.mia, cursor: 2 ** 31, limit: 50 },
    rows: 1,
  }),
  message_history_newer: (f) => ({
    values: { dealId: f.dealId, viewerId: f.bob, cursor: 0, limit: 50 },
    rows: 1,
  }),
  message_by_client_id: (f) => ({
    values: { dealId: f.dealId, senderId: f.alice, clientId: 'seeded-1' },
    rows: 1,
  }),
  wallet_move: (f) => ({
    values: {
      userId: f.alice,
      delta: -1000,
      depositedCents: 0,
      withdrawnCents: 1000,
      maxBalanceCents: 1_000_000,
      kind: 'withdrawal',
      fromAccount: `wallet:${f.alice}`,
      toAccount: 'world',
      amountCents: 1000,
      dealId: null,
      historyType: 'withdrawal',
      description: 'Sample withdrawal',
      ...requester,
    },
    rows: 1,
  }),
  wallet_deposit_many: (f) => ({
    values: {
      userId: f.bob,
      amounts: [100, 250],
      descriptions: ['First', 'Second'],
      maxBalanceCents: 1_000_000,
      kind: 'deposit',
      fromAccount: 'world',
      toAccount: `wallet:${f.bob}`,
      historyType: 'deposit',
      ...requester,
    },
    rows: 2,
  }),
};

/** What a statement declares, as PostgreSQL would describe it: each column's name and type OID. */
function declaredFields(statement: NamedStatement) {
  return Object.entries(statement.columns).map(([name, type]) => ({
    name,
    dataTypeID:
      type === 'alongside' ? typeOids.json : typeOids[type.replace('?', '') as keyof typeof typeOids],
  }));
}

let database: Database;
let modules: string[];

beforeAll(async () => {
  modules = await importStatementModules();
  database = await createTestDatabase();
});
afterAll(() => database?.close());

describe('the statements written in SQL', () => {
  it('are all found, and each has a sample', () => {
    expect(modules.length).toBeGreaterThan(0);
    const names = registeredStatements().map((statement) => statement.name);
    expect(names).toContain('message_send_with_chat_burst');
    expect(names).toContain('notifications_insert_with_deal_event');
    expect(
      names.filter((name) => !(name in samples)),
      'statements without a sample',
    ).toEqual([]);
    expect(
      Object.keys(samples).filter((name) => !names.includes(name)),
      'samples of no statement',
    ).toEqual([]);
  });

  it('each runs on the migrated schema and answers exactly the columns it declares', async () => {
    const client = await poolOf(database.db).connect();
    try {
      for (const statement of registeredStatements()) {
        const sample = samples[statement.name];
        if (!sample) continue;
        await client.query('begin');
        try {
          const fixture = await seed(client);
          const { values, part, rows } = sample(fixture);
          const result = await queryNamed(client, statement, values, part).catch((error: Error) => {
            throw new Error(`Statement "${statement.name}": ${error.message}`);
          });
          expect(
            result.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })),
            `the columns of ${statement.name}`,
          ).toEqual(declaredFields(statement));
          const decoded = statement.decode(result);
          expect(decoded, `the rows of ${statement.name}`).toHaveLength(rows);
          for (const row of decoded) {
            expect(Object.keys(row)).toEqual(Object.keys(statement.columns));
            if ('alongside' in row)
              expect(row.alongside, `the part's rows of ${statement.name}`).not.toEqual([]);
          }
        } finally {
          await client.query('rollback');
        }
      }
    } finally {
      client.release();
    }
  });
});
