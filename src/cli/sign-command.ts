import path from 'node:path';
import { parseArgs } from 'node:util';
import { LICENSE_SIGNATURE_MAX_SECONDS } from '../auth/signature.js';
import { DEFAULT_SIGNATURE_SECONDS, exampleUserToken, parseDuration, signatureFor, type SigningApp } from './sign.js';

/**
 * `svc sign` on its own, so that signing answers at once on a fresh clone: bin/svc.js runs this file from the
 * sources (tsx) without building the server, and it imports nothing of the service but sign.ts. It reads the
 * app's secret straight from the database the service uses (DATABASE_URL, else SQLite `svc.sqlite` in
 * SVC_DATA_DIR, as config.ts reads them; read only, never migrated).
 */

export const SIGN_USAGE = `usage: svc sign --app <appId> [--license] [--expires 1h] [--user <userId>]
  prints, as shell lines for eval "$(npx svc sign …)", a signature for curl: export SIGNATURE=… (1 hour), or
  with --license export LICENSE_SIGNATURE=… (4 minutes at most); --user adds export TOKEN=…, a user token the
  example integrator (examples/integrator) accepts for that user (24 hours)`;

export class SignUsageError extends Error {}

/** The shell lines `svc sign` prints for `args` (the words after `sign`). */
export async function signLines(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const { values } = parseArgs({
    args: [...args],
    options: { app: { type: 'string' }, license: { type: 'boolean' }, expires: { type: 'string' }, user: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return SIGN_USAGE;
  if (typeof values.app !== 'string') throw new SignUsageError('sign needs --app <appId>');
  const license = values.license === true;
  const seconds = typeof values.expires === 'string' ? parseDuration(values.expires) : license ? LICENSE_SIGNATURE_MAX_SECONDS : DEFAULT_SIGNATURE_SECONDS;
  if (seconds === undefined) throw new SignUsageError(`--expires: not a duration (30, 90s, 10m, 2h): ${String(values.expires)}`);
  if (license && seconds > LICENSE_SIGNATURE_MAX_SECONDS) {
    throw new SignUsageError(`--expires: a licence signature lives ${LICENSE_SIGNATURE_MAX_SECONDS / 60} minutes at most`);
  }
  const app = await storedApp(values.app, env);
  const lines = [`export ${license ? 'LICENSE_SIGNATURE' : 'SIGNATURE'}=${await signatureFor(app, { license, seconds })}`];
  if (typeof values.user === 'string') lines.push(`export TOKEN=${await exampleUserToken(app, values.user)}`);
  return lines.join('\n');
}

/** The id and secret of app `appId` as stored; an Error saying what to do when there is none. */
async function storedApp(appId: string, env: NodeJS.ProcessEnv): Promise<SigningApp> {
  const databaseUrl = env.DATABASE_URL || undefined;
  const row = databaseUrl ? await postgresApp(databaseUrl, appId) : await sqliteApp(path.resolve(env.SVC_DATA_DIR || './data', 'svc.sqlite'), appId);
  if (!row) throw new Error(`app ${appId} not found (create it with: npx svc app create --id ${appId})`);
  return row;
}

type AppRow = { id: string; secret: string };

async function sqliteApp(file: string, appId: string): Promise<AppRow | undefined> {
  const { default: Database } = await import('better-sqlite3');
  let db: InstanceType<typeof Database>;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new Error(`no database at ${file}: start the service once (npm start or npm run demo), or set SVC_DATA_DIR / DATABASE_URL as it has them`);
  }
  try {
    return db.prepare('select id, secret from apps where id = ?').get(appId) as AppRow | undefined;
  } finally {
    db.close();
  }
}

async function postgresApp(url: string, appId: string): Promise<AppRow | undefined> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<AppRow>('select id, secret from apps where id = $1', [appId])).rows[0];
  } finally {
    await client.end();
  }
}

/** Runs `svc sign` with `args`, printing its lines, or the error (exit code 1). */
export async function runSign(args: readonly string[]): Promise<void> {
  try {
    console.log(await signLines(args));
  } catch (error) {
    console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof SignUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) console.error(SIGN_USAGE);
    process.exitCode = 1;
  }
}
