import type pg from 'pg';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  alongside,
  defineStatement,
  defineStatementPart,
  type NamedStatement,
  type PartRow,
  type RowOf,
  registeredStatements,
  typeOids,
  type ValuesOf,
} from './prepared';

/**
 * How a statement written in SQL is built and decoded (db/prepared.ts), without a database; that every
 * statement of the server runs on the real schema is db/statements.test.ts.
 */

const sent = (name: string): NamedStatement => {
  const statement = registeredStatements().find((candidate) => candidate.name === name);
  if (!statement) throw new Error(`no statement ${name}`);
  return statement;
};

/** A result as pg answers a query with `rowMode: 'array'`. */
const result = (fields: Array<[string, number]>, rows: unknown[][]) =>
  ({
    fields: fields.map(([name, dataTypeID]) => ({ name, dataTypeID })),
    rows,
  }) as unknown as pg.QueryArrayResult;

defineStatement({
  name: 'test_find',
  params: { userId: 'int4', kinds: 'text[]' },
  text: 'select id, kind as "kindName", read_at as "readAt" from t where user_id = $userId and kind = any($kinds) and user_id > $userId',
  columns: { id: 'int8', kindName: 'text', readAt: 'timestamptz?' },
});

const host = defineStatement({
  name: 'test_host',
  params: { dealId: 'int4', note: 'text' },
  alone: true,
  text: (
    part,
  ) => `with ${part ? `${part.ctes}, ` : ''}mine as (select $dealId::int as id, $note::text as note)
    select mine.id${part ? `, (select json_agg(p) from ${part.name} p) as alongside` : ''} from mine`,
  columns: { id: 'int4' },
});
const carrying = defineStatement({
  name: 'test_carrier',
  params: { dealId: 'int4' },
  alone: false,
  text: (part) =>
    `with ${part!.ctes} select $dealId::int as id, (select json_agg(p) from ${part!.name} p) as alongside`,
  columns: { id: 'int4', alongside: 'alongside' },
});
const part = defineStatementPart({
  name: 'extra',
  host: 'test_carrier',
  params: { dealId: 'int4', at: 'timestamptz' },
  text: 'extra as (select $dealId::int as "dealId", $at::timestamptz as at)',
  columns: { dealId: 'int4', at: 'timestamptz' },
});
defineStatementPart({
  name: 'entry',
  host: 'test_host',
  params: { dealId: 'int4', text: 'text' },
  text: 'entry as (insert into e (deal_id, text) values ($dealId, $text) returning id)',
});

describe('a statement written in SQL', () => {
  it('numbers its named parameters in the order they are declared, each name once', () => {
    expect(sent('test_find').text).toBe(
      'select id, kind as "kindName", read_at as "readAt" from t where user_id = $1 and kind = any($2) and user_id > $1',
    );
    expect(sent('test_find').paramNames).toEqual(['userId', 'kinds']);
  });

  it("numbers a carried part's parameters after its host's, by itself", () => {
    const combined = sent('test_host_with_entry');
    expect(combined.text).toContain(
      'entry as (insert into e (deal_id, text) values ($3, $4) returning id), mine as',
    );
    expect(combined.text).toContain('select $1::int as id, $2::text as note');
    expect([...combined.paramNames, ...combined.partParamNames]).toEqual([
      'dealId',
      'note',
      'dealId',
      'text',
    ]);
    expect(sent('test_host').text).not.toContain('entry');
    expect(() => host.sent(part as never)).toThrow(
      'Part "extra" is made for "test_carrier", not for "test_host".',
    );
    expect(() => carrying.sent(undefined)).toThrow('Statement "test_carrier" is never sent without a part.');
  });

  it('refuses a parameter it does not declare, one it never uses, numbered ones and a second of a name', () => {
    const columns = {};
    expect(() => defineStatement({ name: 'bad_1', params: {}, text: 'select $userId', columns })).toThrow(
      'Statement "bad_1" uses $userId, which it does not declare.',
    );
    expect(() =>
      defineStatement({
        name: 'bad_2',
        params: { userId: 'int4', kind: 'text' },
        text: 'select $userId',
        columns,
      }),
    ).toThrow('Statement "bad_2" declares $kind but never uses it.');
    expect(() =>
      defineStatement({ name: 'bad_3', params: { a: 'int4' }, text: 'select $a, $1', columns }),
    ).toThrow('parameters are named');
    expect(() => defineStatement({ name: 'test_find', params: {}, text: 'select 1', columns })).toThrow(
      'Two statements are named "test_find".',
    );
  });

  it('decodes rows by its columns: int8 as a number, nulls where declared', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const rows = sent('test_find').decode(
      result(
        [
          ['id', typeOids.int8],
          ['kindName', typeOids.text],
          ['readAt', typeOids.timestamptz],
        ],
        [
          ['9007199254740991', 'a', at],
          ['2', 'b', null],
        ],
      ),
    );
    expect(rows).toEqual([
      { id: 9_007_199_254_740_991, kindName: 'a', readAt: at },
      { id: 2, kindName: 'b', readAt: null },
    ]);
  });

  it('refuses, naming the statement, a renamed, missing, extra or retyped column, and a null it does not allow', () => {
    const statement = sent('test_find');
    const good: Array<[string, number]> = [
      ['id', typeOids.int8],
      ['kindName', typeOids.text],
      ['readAt', typeOids.timestamptz],
    ];
    const refused = (fields: Array<[string, number]>, rows: unknown[][] = []) =>
      expect(() => statement.decode(result(fields, rows))).toThrow(/^Statement "test_find" answered /);
    refused([good[0]!, ['kind', typeOids.text], good[2]!]);
    refused([good[0]!, good[1]!]);
    refused([...good, ['extra', typeOids.int4]]);
    refused([['id', typeOids.int4], good[1]!, good[2]!]);
    refused([]);
    expect(() => statement.decode(result(good, [['1', null, null]]))).toThrow(
      'Statement "test_find" answered null for kindName, declared not null.',
    );
  });

  it("decodes a carried part's rows from JSON, by the part's columns, and refuses any other shape", () => {
    const combined = sent('test_carrier_with_extra');
    const fields: Array<[string, number]> = [
      ['id', typeOids.int4],
      ['alongside', typeOids.json],
    ];
    expect(
      combined.decode(result(fields, [[1, [{ dealId: 7, at: '2026-01-02T03:04:05.123456+00:00' }]]])),
    ).toEqual([{ id: 1, alongside: [{ dealId: 7, at: new Date('2026-01-02T03:04:05.123Z') }] }]);
    const refused = (alongsideValue: unknown) =>
      expect(() => combined.decode(result(fields, [[1, alongsideValue]]))).toThrow(
        /^Statement "test_carrier_with_extra": its part answered /,
      );
    refused([{ dealId: 7 }]);
    refused([{ dealId: 7, at: '2026-01-02', more: 1 }]);
    refused([{ deal: 7, at: '2026-01-02' }]);
    refused([{ dealId: '7', at: '2026-01-02' }]);
    refused([{ dealId: null, at: '2026-01-02' }]);
    refused({ dealId: 7, at: '2026-01-02' });
  });

  it('types values and rows by the declaration', () => {
    expectTypeOf<ValuesOf<{ a: 'int4'; b: 'text?'; c: 'int8[]'; d: 'int4?[]' }>>().toEqualTypeOf<{
      a: number;
      b: string | null;
      c: number[];
      d: Array<number | null>;
    }>();
    expectTypeOf<RowOf<{ id: 'int8'; at: 'timestamptz?'; ok: 'bool' }>>().toEqualTypeOf<{
      id: number;
      at: Date | null;
      ok: boolean;
    }>();
    expectTypeOf<PartRow<typeof part>>().toEqualTypeOf<{ dealId: number; at: Date }>();
    // @ts-expect-error a part's values are checked against its parameters
    alongside(part, { dealId: '7', at: new Date() });
  });
});
