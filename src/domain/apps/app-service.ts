import crypto from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { OutboundPolicy } from '../../net/outbound-policy.js';
import type { Storage } from '../../storage/database.js';
import type { AppsTable } from '../../storage/schema.js';
import { FILE_TYPES, isFileType, type FileType } from '../../model/file-types.js';
import type { App, AppDirectory, AppSettings } from '../../apps/app.js';
import type { AppChanges } from '../../apps/app-changes.js';
import { defaultSeatPolicy, isSeatPolicy, SEAT_POLICIES } from '../../apps/seat-policy.js';
import { normalizeEndpointUrl } from './endpoint-url.js';
import { normalizeFrameOrigins, originAllowed } from '../../apps/frame-origins.js';

const DEFAULT_MEMBER_LIMIT = 1000;
const APP_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * How long a looked-up app is reused. Changes are announced (AppChanges) and drop it at once on every process
 * that hears them; the expiry bounds staleness when an announcement is missed (the command line changing the
 * database without a shared Redis, a Redis outage).
 */
const CACHE_TTL_MS = 2000;

export function generateSecret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** The strings of a stored JSON list (frame origins); anything else a hand-edited row holds is dropped. */
function strings(json: string): string[] {
  return (JSON.parse(json) as unknown[]).filter((entry): entry is string => typeof entry === 'string');
}

function toApp(row: Selectable<AppsTable>): App {
  const fileTypes = (json: string) => (JSON.parse(json) as unknown[]).filter(isFileType);
  return {
    id: row.id,
    name: row.name,
    secret: row.secret,
    availableFileTypes: fileTypes(row.available_file_types),
    premiumFileTypes: fileTypes(row.premium_file_types),
    memberLimit: row.member_limit,
    validFrom: row.valid_from,
    validUntil: row.valid_until,
    endpointUrl: row.endpoint_url,
    qpsLimit: row.qps_limit,
    frameOrigins: strings(row.frame_origins),
    // a value written by a newer version this one does not know is enforced as strictly as it can be
    seatPolicy: isSeatPolicy(row.seat_policy) ? row.seat_policy : 'strict',
  };
}

/** Checks settings and returns them with the values stored in normal form (frame origins). */
function validateSettings(settings: AppSettings): AppSettings {
  const bad = (why: string): never => {
    throw new ApiError(Errors.invalidAppUpdate, why);
  };
  if (settings.name !== undefined && (settings.name.length < 1 || settings.name.length > 100)) bad('name must be 1-100 characters');
  if (settings.memberLimit !== undefined && !(Number.isInteger(settings.memberLimit) && settings.memberLimit >= 0)) {
    bad('memberLimit must be a non-negative integer');
  }
  if (settings.qpsLimit != null && !(Number.isInteger(settings.qpsLimit) && settings.qpsLimit >= 1)) bad('qpsLimit must be a positive integer');
  if (settings.seatPolicy !== undefined && !isSeatPolicy(settings.seatPolicy)) bad(`seatPolicy must be one of ${SEAT_POLICIES.join(', ')}`);
  for (const list of [settings.availableFileTypes, settings.premiumFileTypes]) {
    if (list && !list.every(isFileType)) bad(`file types must be among ${FILE_TYPES.join(', ')}`);
  }
  return settings.frameOrigins === undefined ? settings : { ...settings, frameOrigins: normalizeFrameOrigins(settings.frameOrigins) };
}

/** Applications (integrators): their credentials, licence and callback address. */
export class AppService implements AppDirectory {
  private readonly cache = new Map<string, { app: App | undefined; expires: number }>();

  constructor(
    private readonly storage: Storage,
    private readonly outbound: OutboundPolicy,
    private readonly changes: AppChanges,
  ) {
    changes.subscribe((change) => {
      if (change.kind === 'settings') this.cache.delete(change.appId);
    });
  }

  /** Every process forgets what it knew of the app (and what its integrator answered) before the caller goes on. */
  private async changed(appId: string): Promise<void> {
    await this.changes.publish({ kind: 'settings', appId });
  }

  /** Creates an application; the secret is returned here and never again (only rotated). */
  async create(input: AppSettings & { id?: string; secret?: string } = {}): Promise<App> {
    const settings = { ...input, ...validateSettings(input) };
    const id = settings.id ?? crypto.randomBytes(12).toString('hex');
    if (!APP_ID_PATTERN.test(id)) throw new ApiError(Errors.invalidAppUpdate, 'appId must be 1-64 of A-Z a-z 0-9 _ -');
    const now = Date.now();
    const row = {
      id,
      name: settings.name ?? id,
      secret: settings.secret ?? generateSecret(),
      available_file_types: JSON.stringify(settings.availableFileTypes ?? FILE_TYPES),
      premium_file_types: JSON.stringify(settings.premiumFileTypes ?? []),
      member_limit: settings.memberLimit ?? DEFAULT_MEMBER_LIMIT,
      valid_from: now,
      valid_until: settings.validUntil ?? null,
      endpoint_url: settings.endpointUrl ? normalizeEndpointUrl(settings.endpointUrl, this.outbound) : null,
      qps_limit: settings.qpsLimit ?? null,
      frame_origins: JSON.stringify(settings.frameOrigins ?? []),
      seat_policy: settings.seatPolicy ?? defaultSeatPolicy(settings.memberLimit !== undefined),
      created_at: now,
      updated_at: now,
    };
    try {
      await this.storage.db.insertInto('apps').values(row).execute();
    } catch (error) {
      if (this.storage.isUniqueViolation(error)) throw new ApiError(Errors.invalidAppUpdate, `application ${id} already exists`);
      throw error;
    }
    await this.changed(id);
    return toApp(row);
  }

  /** The app, or undefined. Cached for a moment: this runs on every authenticated request. */
  async find(id: string): Promise<App | undefined> {
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.expires > now) return hit.app;
    const row = await this.storage.db.selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirst();
    const app = row ? toApp(row) : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { app, expires: now + CACHE_TTL_MS });
    return app;
  }

  /**
   * Whether some application lists `origin` among its allowed origins: what a CORS preflight, which carries no
   * credentials, can be told (the answer itself is then opened only to the calling app's own origins).
   */
  async anyAllowsOrigin(origin: string): Promise<boolean> {
    const rows = await this.storage.db.selectFrom('apps').select('frame_origins').where('frame_origins', '<>', '[]').execute();
    return rows.some((row) => originAllowed(strings(row.frame_origins), origin));
  }

  async get(id: string): Promise<App> {
    const app = await this.find(id);
    if (!app) throw new ApiError(Errors.appNotFound, `application ${id} not found`);
    return app;
  }

  async update(id: string, input: AppSettings): Promise<App> {
    const settings = validateSettings(input);
    const patch: Updateable<Omit<AppsTable, 'id' | 'created_at'>> = { updated_at: Date.now() };
    if (settings.name !== undefined) patch.name = settings.name;
    if (settings.availableFileTypes) patch.available_file_types = JSON.stringify(settings.availableFileTypes);
    if (settings.premiumFileTypes) patch.premium_file_types = JSON.stringify(settings.premiumFileTypes);
    if (settings.memberLimit !== undefined) patch.member_limit = settings.memberLimit;
    if (settings.validUntil !== undefined) patch.valid_until = settings.validUntil;
    if (settings.qpsLimit !== undefined) patch.qps_limit = settings.qpsLimit;
    if (settings.frameOrigins !== undefined) patch.frame_origins = JSON.stringify(settings.frameOrigins);
    if (settings.seatPolicy !== undefined) patch.seat_policy = settings.seatPolicy;
    if (settings.endpointUrl !== undefined) {
      patch.endpoint_url = settings.endpointUrl === null ? null : normalizeEndpointUrl(settings.endpointUrl, this.outbound);
    }
    const result = await this.storage.db.updateTable('apps').set(patch).where('id', '=', id).executeTakeFirst();
    await this.changed(id);
    if (result.numUpdatedRows === 0n) throw new ApiError(Errors.appNotFound, `application ${id} not found`);
    return this.get(id);
  }

  async setEndpointUrl(id: string, url: string): Promise<App> {
    return this.update(id, { endpointUrl: url });
  }

  /** Replaces the secret; signatures made with the old one stop verifying at once (on every process that hears of it). */
  async rotateSecret(id: string): Promise<App> {
    const secret = generateSecret();
    const result = await this.storage.db
      .updateTable('apps')
      .set({ secret, updated_at: Date.now() })
      .where('id', '=', id)
      .executeTakeFirst();
    await this.changed(id);
    if (result.numUpdatedRows === 0n) throw new ApiError(Errors.appNotFound, `application ${id} not found`);
    return this.get(id);
  }

  /** Creates the app or brings its secret and endpoint in line; running it twice changes nothing more. */
  async ensure(input: { id: string; secret: string; endpointUrl?: string | undefined }): Promise<App> {
    const existing = await this.find(input.id);
    if (!existing) return this.create({ id: input.id, secret: input.secret, endpointUrl: input.endpointUrl ?? null });
    if (existing.secret !== input.secret) {
      await this.storage.db.updateTable('apps').set({ secret: input.secret, updated_at: Date.now() }).where('id', '=', input.id).execute();
      await this.changed(input.id);
    }
    if (input.endpointUrl !== undefined && normalizeEndpointUrl(input.endpointUrl, this.outbound) !== existing.endpointUrl) {
      return this.update(input.id, { endpointUrl: input.endpointUrl });
    }
    return this.get(input.id);
  }
}
