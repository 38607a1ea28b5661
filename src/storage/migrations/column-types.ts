import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Column type for binary data in migrations: PostgreSQL has no `blob`, SQLite no `bytea`. Kept here, not in
 * database.ts, because database.ts runs the migrations: migrations depend on nothing that depends on them.
 */
export function binaryColumnType(db: Kysely<unknown>): 'bytea' | 'blob' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
}
