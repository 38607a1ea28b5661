import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { StorageOptions } from '../../src/storage/database.js';

/** A database engine the suite runs against, able to hand out a clean, private database per test. */
export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** Storage options for a brand-new empty database, and how to throw it away. */
  fresh(): Promise<{ options: StorageOptions; dispose(): Promise<void> }>;
}

const sqlite: TestDatabase = {
  name: 'sqlite',
  async fresh() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
    return {
      options: { dataDir: dir },
      dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

function postgres(url: string): TestDatabase {
  return {
    name: 'postgres',
    async fresh() {
      const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
      return {
        options: { databaseUrl: url, pgSchema: schema, dataDir },
        dispose: async () => {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            await client.query(`drop schema if exists ${schema} cascade`);
          } finally {
            await client.end();
          }
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  };
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL (or DATABASE_URL) names one. */
export function testDatabases(): TestDatabase[] {
  const url = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  return url ? [sqlite, postgres(url)] : [sqlite];
}
