import type pg from 'pg';
import type { DbOrTx } from './client';
import { clientOf } from './driver';

/**
 * A hot query built once per database handle and sent as a named prepared
 * statement: the SQL is not rebuilt on every call, and PostgreSQL parses and
 * plans it once per connection instead of once per call
 * (docs/decisions/0012-prepared-statements.md). A transaction's handle is
 * its pooled connection's (db/transaction.ts), so it too builds each query once.
 *
 *   const findWallet = prepared((db) =>
 *     db.select().from(wallets).where(eq(wallets.userId, sql.placeholder('userId'))).prepare('wallet_find'));
 *   const [row] = await findWallet(db).execute({ userId });
 */
export function prepared<Q>(build: (db: DbOrTx) => Q): (db: DbOrTx) => Q {
  const built = new WeakMap<DbOrTx, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}

// ── Statements written in SQL ──────────────────────────────────────────────
//
// A hot statement Drizzle's builder cannot express (a chain of CTEs) is written in SQL once, in the
// repository that owns it, with `defineStatement`: its name (the prepared statement's, on every
// connection), its parameters by name (`$dealId` in the text), and the columns it answers, each with its
// PostgreSQL type. `executeNamed` sends it as a named prepared statement and decodes what comes back
// through the declaration: the result's columns must be exactly the declared ones, in order, with their
// types, and a column declared without `?` must never be null, or the call fails naming the statement.
// Every statement is registered when its module is imported: db/statements.test.ts runs each of them on
// the migrated schema, so a renamed column fails a test rather than a request.

/** The PostgreSQL types a statement's parameters and columns are declared with, by type OID. */
export const typeOids = {
  bool: 16,
  int8: 20,
  int4: 23,
  text: 25,
  json: 114,
  timestamptz: 1184,
  jsonb: 3802,
} as const;
export type BaseType = keyof typeof typeOids;
type TsOf<B> = B extends 'int4' | 'int8'
  ? number
  : B extends 'text'
    ? string
    : B extends 'bool'
      ? boolean
      : B extends 'timestamptz'
        ? Date
        : unknown;
type ValueOf<T> = T extends `${infer B}?[]`
  ? Array<TsOf<B> | null>
  : T extends `${infer B}[]`
    ? Array<TsOf<B>>
    : T extends `${infer B}?`
      ? TsOf<B> | null
      : TsOf<T>;

/** A parameter: a type, `?` when it may be null, `[]` for an array. */
export type ParamType = BaseType | `${BaseType}?` | `${BaseType}[]` | `${BaseType}?[]`;
/**
 * A column: a type, `?` when it may be null; `alongside` for the JSON array of the rows a statement
 * carrying another feature's part answers for it (see `defineStatementPart`).
 */
export type ColumnType = BaseType | `${BaseType}?` | 'alongside';
export type Params = Record<string, ParamType>;
export type Columns = Record<string, ColumnType>;
export type ValuesOf<P extends Params> = { -readonly [K in keyof P]: ValueOf<P[K]> };
export type RowOf<C extends Columns, Carried = never> = {
  -readonly [K in keyof C]: C[K] extends 'alongside' ? Carried[] : ValueOf<C[K]>;
};

/** One prepared statement as it is sent: its name, its text with $1, $2…, and how its rows decode. */
export type NamedStatement = {
  readonly name: string;
  readonly text: string;
  /** The declared columns (name → type), in order. */
  readonly columns: Readonly<Columns>;
  /** The parameter names, in the order of $1, $2…: the statement's own, then those of the part it carries. */
  readonly paramNames: readonly string[];
  readonly partParamNames: readonly string[];
  /** The declared columns of the part it carries, decoded from the `alongside` column's JSON. */
  readonly partColumns: Readonly<Columns> | undefined;
  /** Checks a result against the declaration and decodes its rows (arrays: `rowMode: 'array'`). */
  decode(result: pg.QueryArrayResult): Array<Record<string, unknown>>;
};

/** A statement defined with `defineStatement`: typed by its declaration. */
export type Statement<P extends Params, C extends Columns> = {
  readonly name: string;
  /** @internal the statement sent without a part, or with each part made for it */
  readonly sent: (part: StatementPart<Params, unknown> | undefined) => NamedStatement;
  readonly _types?: { params: P; columns: C };
};

/** A data-modifying CTE (or several) of one feature, carried by another feature's statement: one round trip for both. */
export type StatementPart<P extends Params, Row> = {
  readonly name: string;
  /** The statement that carries it. */
  readonly host: string;
  readonly params: P;
  readonly text: string;
  readonly columns: Readonly<Columns> | undefined;
  readonly _row?: Row;
};

/** The rows a part answers (through its host's `alongside` column). */
export type PartRow<S> = S extends StatementPart<infer _P, infer Row> ? Row : never;

/** A part with its values, as the feature that owns it hands it to the one whose statement carries it. */
export type Alongside<Row = unknown> = {
  readonly part: StatementPart<Params, Row>;
  readonly values: Readonly<Record<string, unknown>>;
};

/** The part with the values of this call. */
export function alongside<P extends Params, Row>(
  part: StatementPart<P, Row>,
  values: ValuesOf<P>,
): Alongside<Row> {
  return { part: part as unknown as StatementPart<Params, Row>, values };
}

const registry = new Map<string, NamedStatement>();
const hosts = new Map<string, Host>();
const partsByHost = new Map<string, Array<StatementPart<Params, unknown>>>();

/** Every named statement defined so far (the modules that define them have been imported). */
export function registeredStatements(): NamedStatement[] {
  return [...registry.values()];
}

function register(statement: NamedStatement) {
  if (registry.has(statement.name)) throw new Error(`Two statements are named "${statement.name}".`);
  registry.set(statement.name, statement);
}

/**
 * A statement written in SQL, with named parameters (`$userId`) and its columns:
 *
 *   const unreadCounts = defineStatement({
 *     name: 'notifications_unread_counts',
 *     params: { userIds: 'int4[]' },
 *     text: 'select user_id as "userId", count(*)::int as count from notifications where user_id = any($userIds) …',
 *     columns: { userId: 'int4', count: 'int4' },
 *   });
 *   const rows = await executeNamed(db, unreadCounts, { userIds });   // Array<{ userId: number; count: number }>
 *
 * A statement that carries other features' parts has a text that is a function of the part (its CTEs,
 * to put in its `with`, and the name of the CTE whose rows it answers in an `alongside` column); it is
 * sent on its own only when `alone` is true.
 */
export function defineStatement<const P extends Params, const C extends Columns>(definition: {
  name: string;
  params: P;
  columns: C;
  text: string;
}): Statement<P, C>;
export function defineStatement<const P extends Params, const C extends Columns>(definition: {
  name: string;
  params: P;
  columns: C;
  text: (part: { ctes: string; name: string } | undefined) => string;
  alone: boolean;
}): Statement<P, C>;
export function defineStatement(definition: {
  name: string;
  params: Params;
  columns: Columns;
  text: string | ((part: { ctes: string; name: string } | undefined) => string);
  alone?: boolean;
}): Statement<Params, Columns> {
  const { name, params, columns, text } = definition;
  const paramNames = Object.keys(params);
  if (typeof text === 'string') {
    const statement = namedStatement(name, numbered(name, text, paramNames, 0), columns, paramNames);
    register(statement);
    return { name, sent: () => statement };
  }
  const host: Host = { name, params: paramNames, columns, text, withPart: new Map() };
  if (hosts.has(name)) throw new Error(`Two statements are named "${name}".`);
  hosts.set(name, host);
  let alone: NamedStatement | undefined;
  if (definition.alone) {
    alone = namedStatement(name, numbered(name, text(undefined), paramNames, 0), columns, paramNames);
    register(alone);
  }
  for (const part of partsByHost.get(name) ?? []) carry(host, part);
  return {
    name,
    sent: (part) => {
      if (!part) {
        if (!alone) throw new Error(`Statement "${name}" is never sent without a part.`);
        return alone;
      }
      const statement = host.withPart.get(part);
      if (!statement) throw new Error(`Part "${part.name}" is made for "${part.host}", not for "${name}".`);
      return statement;
    },
  };
}

/**
 * CTEs of one feature that another feature's statement (`host`) carries, written by the feature that
 * owns the rows they write (the timeline's entry carried by the statement storing its notifications, the
 * notifications of a chat message carried by the statement storing the message). Its parameters are
 * named like a statement's and numbered after the host's by the combined statement itself. The CTE named
 * `name` is the one whose rows (`columns`, if any) the host answers in its `alongside` column. It may
 * read what its host's definition says a part may read.
 */
export function defineStatementPart<
  const P extends Params,
  const C extends Columns = Record<never, never>,
>(definition: {
  name: string;
  host: string;
  params: P;
  text: string;
  columns?: C;
}): StatementPart<P, RowOf<C>> {
  const part: StatementPart<P, RowOf<C>> = {
    name: definition.name,
    host: definition.host,
    params: definition.params,
    text: definition.text,
    columns: definition.columns,
  };
  const erased = part as unknown as StatementPart<Params, unknown>;
  const waiting = partsByHost.get(part.host) ?? [];
  if (waiting.some((other) => other.name === part.name)) {
    throw new Error(`Two parts for "${part.host}" are named "${part.name}".`);
  }
  waiting.push(erased);
  partsByHost.set(part.host, waiting);
  const host = hosts.get(part.host);
  if (host) carry(host, erased);
  return part;
}

type Host = {
  name: string;
  params: string[];
  columns: Columns;
  text: (part: { ctes: string; name: string } | undefined) => string;
  withPart: Map<StatementPart<Params, unknown>, NamedStatement>;
};

/** The host's statement carrying the part: one named statement, registered, its parameters numbered host first. */
function carry(host: Host, part: StatementPart<Params, unknown>) {
  const name = `${host.name}_with_${part.name}`;
  const partParams = Object.keys(part.params);
  // Each side's names are numbered on their own (the host's first), then the part goes in its place.
  const slot = '\u0000part\u0000';
  const hostText = numbered(name, host.text({ ctes: slot, name: part.name }), host.params, 0);
  if (hostText.split(slot).length !== 2)
    throw new Error(`Statement "${host.name}" must put a part's CTEs in once.`);
  const text = hostText.replace(slot, () => numbered(name, part.text, partParams, host.params.length));
  const statement = namedStatement(name, text, host.columns, host.params, partParams, part.columns);
  register(statement);
  host.withPart.set(part, statement);
}

/** Replaces each `$name` by its number ($1…) and checks that the parameters used are the declared ones. */
function numbered(statement: string, text: string, names: readonly string[], offset: number): string {
  if (/\$\d/.test(text)) {
    throw new Error(`Statement "${statement}": parameters are named ($dealId), not numbered.`);
  }
  const used = new Set<string>();
  const result = text.replaceAll(/\$([A-Za-z_]\w*)/g, (_, name: string) => {
    const index = names.indexOf(name);
    if (index < 0) throw new Error(`Statement "${statement}" uses $${name}, which it does not declare.`);
    used.add(name);
    return `$${offset + index + 1}`;
  });
  const unused = names.filter((name) => !used.has(name));
  if (unused.length > 0) {
    throw new Error(
      `Statement "${statement}" declares ${unused.map((n) => `$${n}`).join(', ')} but never uses it.`,
    );
  }
  return result;
}

type ColumnDecoder = {
  name: string;
  type: ColumnType;
  oid: number;
  nullable: boolean;
  convert: ((value: unknown) => unknown) | undefined;
};

function columnDecoders(
  columns: Columns,
  partColumns: Columns | undefined,
  statement: string,
): ColumnDecoder[] {
  return Object.entries(columns).map(([name, type]) => {
    if (type === 'alongside') {
      if (!partColumns)
        throw new Error(`Statement "${statement}" answers "${name}" but carries no part with columns.`);
      const decodeRows = jsonRowsDecoder(partColumns, statement);
      return { name, type, oid: typeOids.json, nullable: false, convert: decodeRows };
    }
    const nullable = type.endsWith('?');
    const base = (nullable ? type.slice(0, -1) : type) as BaseType;
    // pg parses int4, bool, timestamptz, json and jsonb itself; int8 comes as text (it may pass 2^53).
    return { name, type, oid: typeOids[base], nullable, convert: base === 'int8' ? toNumber : undefined };
  });
}
const toNumber = (value: unknown) => Number(value);

function namedStatement(
  name: string,
  text: string,
  columns: Columns,
  paramNames: readonly string[],
  partParamNames: readonly string[] = [],
  partColumns?: Columns,
): NamedStatement {
  const decoders = columnDecoders(columns, partColumns, name);
  const count = decoders.length;
  const mismatch = (fields: pg.FieldDef[]) =>
    new Error(
      `Statement "${name}" answered the columns ${fields.map((f) => `${f.name} (type ${f.dataTypeID})`).join(', ') || '(none)'}; ` +
        `it declares ${decoders.map((d) => `${d.name} (${d.type}, type ${d.oid})`).join(', ') || '(none)'}.`,
    );
  return {
    name,
    text,
    columns,
    paramNames,
    partParamNames,
    partColumns,
    decode(result) {
      const { fields, rows } = result;
      if (fields.length !== count) throw mismatch(fields);
      for (let i = 0; i < count; i++) {
        const field = fields[i]!;
        const decoder = decoders[i]!;
        if (field.name !== decoder.name || field.dataTypeID !== decoder.oid) throw mismatch(fields);
      }
      const decoded = new Array<Record<string, unknown>>(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r]!;
        const out: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) {
          const decoder = decoders[i]!;
          const value = row[i];
          if (value === null) {
            if (!decoder.nullable)
              throw new Error(`Statement "${name}" answered null for ${decoder.name}, declared not null.`);
            out[decoder.name] = null;
          } else {
            out[decoder.name] = decoder.convert ? decoder.convert(value) : value;
          }
        }
        decoded[r] = out;
      }
      return decoded;
    },
  };
}

/** The decoder of a part's rows, carried as a JSON array: exactly the declared keys, each of its type. */
function jsonRowsDecoder(columns: Columns, statement: string): (value: unknown) => unknown[] {
  const jsonTypes: Partial<Record<string, string>> = {
    int4: 'number',
    int8: 'number',
    text: 'string',
    bool: 'boolean',
    timestamptz: 'string',
  };
  const entries = Object.entries(columns).map(([name, type]) => {
    const nullable = type.endsWith('?');
    const base = nullable ? type.slice(0, -1) : type;
    return { name, nullable, base, jsonType: jsonTypes[base], isTime: base === 'timestamptz' };
  });
  const count = entries.length;
  const fail = (what: string) => new Error(`Statement "${statement}": its part answered ${what}.`);
  return (value) => {
    if (!Array.isArray(value)) throw fail(`${JSON.stringify(value)}, not an array of rows`);
    const rows = new Array<Record<string, unknown>>(value.length);
    for (let r = 0; r < value.length; r++) {
      const item = value[r] as Record<string, unknown>;
      // json_agg writes a row's keys in its columns' order: they must be the declared ones, in order.
      const keys = Object.keys(item);
      let same = keys.length === count;
      for (let i = 0; same && i < count; i++) same = keys[i] === entries[i]!.name;
      if (!same)
        throw fail(`a row of ${keys.join(', ')}; it declares ${entries.map((e) => e.name).join(', ')}`);
      const out: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) {
        const { name, nullable, base, jsonType, isTime } = entries[i]!;
        const field = item[name];
        if (field === null) {
          if (!nullable) throw fail(`null for ${name}, declared not null`);
          out[name] = null;
        } else if (jsonType !== undefined && typeof field !== jsonType) {
          throw fail(`${JSON.stringify(field)} for ${name}, declared ${base}`);
        } else {
          out[name] = isTime ? new Date(field as string) : field;
        }
      }
      rows[r] = out;
    }
    return rows;
  };
}

/**
 * Sends a statement as a named prepared statement on whichever connection runs it (parsed and planned
 * once per connection) and answers its rows decoded by its declaration; a statement that carries
 * another feature's part (`alongside`) is sent as the one statement combining both.
 */
export async function executeNamed<P extends Params, C extends Columns, Carried = never>(
  db: DbOrTx,
  statement: Statement<P, C>,
  values: ValuesOf<P>,
  alongside?: Alongside<Carried>,
): Promise<Array<RowOf<C, Carried>>> {
  const sent = statement.sent(alongside?.part);
  const result = await queryNamed(clientOf(db), sent, values, alongside?.values);
  return sent.decode(result) as Array<RowOf<C, Carried>>;
}

/** One named statement on a connection, its values in the order of its parameters: the raw result (arrays). */
export function queryNamed(
  client: Pick<pg.ClientBase, 'query'>,
  statement: NamedStatement,
  values: Readonly<Record<string, unknown>>,
  partValues: Readonly<Record<string, unknown>> = {},
): Promise<pg.QueryArrayResult> {
  const positional = new Array<unknown>(statement.paramNames.length + statement.partParamNames.length);
  let i = 0;
  for (const name of statement.paramNames) positional[i++] = values[name];
  for (const name of statement.partParamNames) positional[i++] = partValues[name];
  return client.query({ name: statement.name, text: statement.text, values: positional, rowMode: 'array' });
}
