import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type MigrationProvider,
  type SchemaMetadata,
  type SelectQueryBuilder,
  type TableMetadata,
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
  /** Cheap round trip, for health checks. */
  ping(): Promise<void>;
  /**
   * Makes a select of rows to claim (a work queue) skip rows another transaction is claiming right now:
   * `FOR UPDATE SKIP LOCKED` on PostgreSQL; on SQLite, whose writers are serialised, the query as is.
   */
  skipLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  close(): Promise<void>;
}

export interface StorageOptions {
  /** unset: SQLite file `svc.sqlite` in dataDir; `postgres://…`: PostgreSQL */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only: schema to use (tests give each test its own). Created when missing. */
  pgSchema?: string;
  /** SQLite only: explicit file path (":memory:" allowed). Overrides dataDir. */
  sqliteFile?: string;
}

/** Column type for binary data in migrations: PostgreSQL has no `blob`, SQLite no `bytea`. */
export function binaryColumnType(db: Kysely<unknown>): 'bytea' | 'blob' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
}

const staticMigrations: MigrationProvider = { getMigrations: async () => migrations };

export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.databaseUrl ? await openPostgres(options.databaseUrl, options.pgSchema) : openSqlite(options);
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  return {
    engine: 'sqlite',
    db,
    skipLocked: (query) => query,
    isUniqueViolation: (error) =>
      typeof error === 'object' &&
      error !== null &&
      'code' in error &&
      (error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || error.code === 'SQLITE_CONSTRAINT_UNIQUE'),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
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

async function openPostgres(url: string, schema: string | undefined): Promise<Storage> {
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
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }) });
  return {
    engine: 'postgres',
    db,
    skipLocked: (query) => query.forUpdate().skipLocked(),
    isUniqueViolation: (error) =>
      typeof error === 'object' && error !== null && 'code' in error && error.code === '23505',
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
