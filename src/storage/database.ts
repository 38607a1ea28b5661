import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Insertable,
  type MigrationProvider,
  type RawBuilder,
  type SchemaMetadata,
  type SelectQueryBuilder,
  type TableMetadata,
  type Transaction,
} from 'kysely';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * The few places where SQLite and PostgreSQL differ, behind one small interface.
 * The rest of the code uses `db` and never asks which engine it is on.
 */
export interface Storage {
  readonly engine: 'sqlite' | 'postgres';
  readonly db: Db;
  /** True when `error` is a unique/primary-key violation raised by this engine. */
  isUniqueViolation(error: unknown): boolean;
  /** True when `error` is a foreign-key violation raised by this engine (a row whose parent is gone). */
  isForeignKeyViolation(error: unknown): boolean;
  /**
   * True when `error` says the statement lost a race with another transaction and may simply run again:
   * a deadlock or serialization failure on PostgreSQL, a busy database on SQLite.
   */
  isTransientConflict(error: unknown): boolean;
  /** Cheap round trip, for health checks. */
  ping(): Promise<void>;
  /**
   * Makes a select of rows to claim (a work queue) skip rows another transaction is claiming right now:
   * `FOR UPDATE SKIP LOCKED` on PostgreSQL; on SQLite, whose writers are serialised, the query as is.
   */
  skipLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Inserts thousands of rows into `table` within the transaction `trx` (all of them or, with it, none).
   * Every row names the same columns in the same order. Kysely would build and prepare one statement of
   * rows × columns parameters on every call, which costs more than running it; here each engine reuses
   * what it can (see `sqliteBulkInsert`, `postgresBulkInsert`).
   */
  insertMany<T extends keyof Database & string>(trx: Transaction<Database>, table: T, rows: readonly Insertable<Database[T]>[]): Promise<void>;
  /**
   * A member of the JSON object stored as text in `column`, as an SQL expression: `text` gives strings as they
   * are and arrays as JSON text; `number` gives JSON numbers as numbers, so that they order numerically
   * (PostgreSQL: null for anything else; SQLite: other values as they are, ordered after the numbers).
   * Absent members are null. `key` is bound as a parameter.
   */
  jsonMember(column: string, key: string, as: 'text' | 'number'): RawBuilder<string | number | null>;
  close(): Promise<void>;
}

/** How long a statement waits for a PostgreSQL connection (from the pool, or a new one) before it fails. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** Node's network error codes of a connection that failed, was refused, reset or timed out. */
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What node-postgres says, without a code, when a connection is cut or cannot be had in time. */
const PG_CONNECTION_LOST = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|Connection lost/i;

/**
 * True when `error` says the database could not be reached (connection refused, cut, or not had in time)
 * rather than that the statement was wrong: the request may simply be tried again later (503 / 127002).
 * PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P0x (server shutting down, cannot connect
 * now), a network error code, or node-postgres's own messages; on SQLite, a database locked past
 * `busy_timeout`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = errorCode(cause);
    if (typeof code === 'string') {
      if (NETWORK_ERROR_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code) || code.startsWith('SQLITE_BUSY')) return true;
    } else if (PG_CONNECTION_LOST.test(cause.message)) {
      return true;
    }
  }
  return false;
}

export interface StorageOptions {
  /** unset: SQLite file `svc.sqlite` in dataDir; `postgres://…`: PostgreSQL */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only: schema to use (tests give each test its own). Created when missing. */
  pgSchema?: string;
  /** PostgreSQL only: longest wait for a connection, ms (default DEFAULT_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** SQLite only: explicit file path (":memory:" allowed). Overrides dataDir. */
  sqliteFile?: string;
}

const staticMigrations: MigrationProvider = { getMigrations: async () => migrations };

export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.pgSchema, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS)
    : openSqlite(options);
  try {
    await migrate(storage.db, options.databaseUrl ? options.pgSchema : undefined);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

/**
 * `schema`: the PostgreSQL schema in use. Named explicitly because the migrator otherwise takes a migration
 * table in any schema of the database (another test's, say) for its own.
 */
async function migrate(db: Db, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({ db, provider: staticMigrations, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function openSqlite(options: StorageOptions): Storage {
  const file = options.sqliteFile ?? path.join(options.dataDir, 'svc.sqlite');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  // WAL lets readers proceed during a write; busy_timeout makes a second process wait instead of failing.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(connection) }) });
  return {
    engine: 'sqlite',
    db,
    skipLocked: (query) => query,
    insertMany: inTransactionOnly(sqliteBulkInsert(connection, db)),
    // SQLite orders numbers before text by itself, so `number` is the member as it is: one JSON read per row.
    jsonMember: (column, key) => sql<string | number | null>`json_extract(${sql.ref(column)}, ${`$.${JSON.stringify(key)}`})`,
    isUniqueViolation: (error) => errorCode(error) === 'SQLITE_CONSTRAINT_PRIMARYKEY' || errorCode(error) === 'SQLITE_CONSTRAINT_UNIQUE',
    isForeignKeyViolation: (error) => errorCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
    isTransientConflict: (error) => typeof errorCode(error) === 'string' && (errorCode(error) as string).startsWith('SQLITE_BUSY'),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}

/** Prepared statements kept per SQLite connection (the most recently used ones). */
const SQLITE_STATEMENTS_KEPT = 500;

/**
 * The connection as Kysely sees it, with its statements prepared once and reused: Kysely asks to prepare
 * every query anew, which for the short statements of hot paths (event delivery's claim and outcomes, the
 * content log) costs more than running them. Kysely runs one statement at a time on the connection, so a
 * reused statement is never busy.
 */
function reusingStatements(connection: SQLite.Database): { prepare(sql: string): SQLite.Statement; close(): void } {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(text) {
      let statement = statements.get(text);
      if (statement) {
        // most recently used last: the Map's order is the eviction order
        statements.delete(text);
      } else {
        statement = connection.prepare(text);
        if (statements.size >= SQLITE_STATEMENTS_KEPT) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
    close: () => connection.close(),
  };
}

/** See the pool's 'error' listeners in `openPostgres`: the failure reaches whoever used the connection. */
function ignoreConnectionError(): void {}

/** The driver's error code (better-sqlite3 and pg both name it `code`). */
function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

type BulkInsert = Storage['insertMany'];

/**
 * The type already asks for a transaction; this keeps a cast from quietly splitting a bulk insert into
 * separately committed statements (on SQLite, from running it inside whichever transaction holds the
 * connection).
 */
function inTransactionOnly(insert: BulkInsert): BulkInsert {
  return async (trx, table, rows) => {
    if (!trx.isTransaction) throw new Error('insertMany runs inside a transaction');
    await insert(trx, table, rows);
  };
}

/** The columns of rows given to `insertMany`, and each row's values in that order. */
function columnsOf(rows: readonly object[]): string[] {
  return rows.length === 0 ? [] : Object.keys(rows[0] as object);
}

/** An INSERT of `count` rows of `columns` in the dialect of `db` (identifiers quoted its way). */
function insertSql(db: Db, table: keyof Database & string, columns: readonly string[], count: number): string {
  // Only the SQL is kept, so placeholder values will do; Kysely cannot type values for a table chosen at run time.
  const placeholder = Object.fromEntries(columns.map((column) => [column, null]));
  return db
    .insertInto(table)
    .values(Array.from({ length: count }, () => placeholder) as never)
    .compile().sql;
}

/** Writes the values of `rows[from, from + count)` into `target` (row after row, in `columns` order). */
function fillParameters(target: unknown[], rows: readonly object[], from: number, count: number, columns: readonly string[]): void {
  let at = 0;
  for (let index = from; index < from + count; index++) {
    const row = rows[index] as Record<string, unknown>;
    for (const column of columns) target[at++] = row[column];
  }
}

/** Rows per statement of a SQLite bulk insert: few calls into SQLite, a statement that is quick to prepare. */
const SQLITE_ROWS_PER_STATEMENT = 100;
/** SQLite's limit on bound parameters per statement (SQLITE_MAX_VARIABLE_NUMBER). */
const SQLITE_MAX_PARAMETERS = 32_766;

/**
 * SQLite bulk insert: statements of 100 rows, then of one row for the rest, each prepared once per
 * connection and run over and over. A reused better-sqlite3 statement costs only its binding, where
 * Kysely prepares every statement anew. The statements run on the connection itself: that is the
 * transaction's connection (SQLite has one, and Kysely holds it for the transaction), so they are part of it.
 */
function sqliteBulkInsert(connection: SQLite.Database, db: Db): BulkInsert {
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: keyof Database & string, columns: readonly string[], count: number): SQLite.Statement => {
    const key = `${table}(${columns.join()})${count}`;
    let prepared = statements.get(key);
    if (!prepared) statements.set(key, (prepared = connection.prepare(insertSql(db, table, columns, count))));
    return prepared;
  };
  return async (trx, table, rows) => {
    const columns = columnsOf(rows);
    const perStatement = Math.min(SQLITE_ROWS_PER_STATEMENT, Math.floor(SQLITE_MAX_PARAMETERS / Math.max(1, columns.length)));
    let done = 0;
    // Whole statements of `perStatement` rows first, then one row at a time for the rest.
    for (const count of [perStatement, 1]) {
      if (rows.length - done < count) continue;
      const insert = statement(table, columns, count);
      const parameters = new Array<unknown>(count * columns.length);
      for (; rows.length - done >= count; done += count) {
        fillParameters(parameters, rows, done, count, columns);
        insert.run(parameters);
      }
    }
  };
}

/** Bound parameters per PostgreSQL statement: its protocol allows 65,535. */
const POSTGRES_MAX_PARAMETERS = 65_535;
/** Compiled multi-row INSERTs kept per storage (by table, columns and row count). */
const POSTGRES_INSERT_TEMPLATES = 16;

/**
 * PostgreSQL bulk insert: multi-row INSERTs (as many rows as the parameter limit allows), their SQL text
 * kept per row count, since building a statement of thousands of rows costs more than running it.
 */
function postgresBulkInsert(db: Db): BulkInsert {
  const templates = new Map<string, string>();
  return async (trx, table, rows) => {
    const columns = columnsOf(rows);
    const perStatement = Math.floor(POSTGRES_MAX_PARAMETERS / Math.max(1, columns.length));
    for (let start = 0; start < rows.length; start += perStatement) {
      const count = Math.min(perStatement, rows.length - start);
      const key = `${table}(${columns.join()})${count}`;
      let sqlText = templates.get(key);
      if (sqlText === undefined) {
        sqlText = insertSql(db, table, columns, count);
        if (templates.size < POSTGRES_INSERT_TEMPLATES) templates.set(key, sqlText);
      }
      const parameters = new Array<unknown>(count * columns.length);
      fillParameters(parameters, rows, start, count, columns);
      await trx.executeQuery(CompiledQuery.raw(sqlText, parameters));
    }
  };
}

// int8 (bigint) comes back as a string by default; our bigints are epoch milliseconds and counters,
// all well inside Number's exact range.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Kysely's PostgreSQL introspector reads the tables of every schema in the database, and fails ("schema …
 * does not exist") when another schema is dropped meanwhile, as parallel tests do. The migrator only needs
 * to know the tables on our search path, so that is all this one reads.
 */
class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    return (await sql<SchemaMetadata>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db)).rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const result = await sql<{ name: string; schema: string; isView: boolean }>`
      select c.relname as name, n.nspname as schema, c.relkind = 'v' as "isView"
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = any(current_schemas(false)) and c.relkind in ('r', 'v', 'p')`.execute(this.db);
    return result.rows.map((table) => ({ ...table, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

async function openPostgres(url: string, schema: string | undefined, connectTimeoutMs: number): Promise<Storage> {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: pgTypes,
    // a database that accepts connections and never answers (or a full pool) fails the statement in time
    connectionTimeoutMillis: connectTimeoutMs,
    // a cut the operating system notices (peer gone) ends the connection instead of leaving it open for hours
    keepAlive: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection the database cut, or that broke while idle, emits 'error'; with no listener Node ends the
  // process. The statement that was using it (if any) fails with its own error (503 / 127002 for a request, a
  // retry for the background workers); the pool drops the broken connection and opens a new one when asked.
  pool.on('error', ignoreConnectionError);
  pool.on('connect', (client) => client.on('error', ignoreConnectionError));
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return {
    engine: 'postgres',
    db,
    skipLocked: (query) => query.forUpdate().skipLocked(),
    insertMany: inTransactionOnly(postgresBulkInsert(db)),
    jsonMember: (column, key, as) => {
      const member = sql`(${sql.ref(column)}::jsonb -> ${key}::text)`;
      return as === 'text'
        ? sql<string | null>`(${sql.ref(column)}::jsonb ->> ${key}::text)`
        : sql<number | null>`(case when jsonb_typeof(${member}) = 'number' then (${member})::text::double precision end)`;
    },
    isUniqueViolation: (error) => errorCode(error) === '23505',
    isForeignKeyViolation: (error) => errorCode(error) === '23503',
    isTransientConflict: (error) => errorCode(error) === '40P01' || errorCode(error) === '40001',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
