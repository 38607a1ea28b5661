import { sql, type Kysely, type Transaction } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';
import type { Database } from '../../storage/schema.js';
import type { SeatPolicy } from '../../apps/seat-policy.js';

/** Seat status (spec 2.4). */
export const SeatStatus = { activated: 1, disabled: 0, notEnabled: -1 } as const;
export type SeatStatusValue = (typeof SeatStatus)[keyof typeof SeatStatus];

export interface Seat {
  userId: string;
  status: SeatStatusValue;
  createdAt: string;
}

export interface SeatCounts {
  /** seats with status 1 */
  activated: number;
  /** every user the app has ever given a status */
  total: number;
}

/** How long a counted number of activated seats is reused by admit. */
const ACTIVATED_COUNT_TTL_MS = 1000;

/** What `admit` needs of an application. */
export interface SeatedApp {
  id: string;
  seatPolicy: SeatPolicy;
  memberLimit: number;
}

/** Why a user is refused: `data.reason` of error 20011 (docs/ERRORS.md). */
export type SeatRefusal = 'disabled' | 'not-activated' | 'member-limit';

/** User seats of an application: who may use the editors, bounded by the app's memberLimit. */
export class SeatService {
  private readonly activatedCounts = new Map<string, { count: number; expires: number }>();

  constructor(private readonly storage: Storage) {}

  /**
   * Lets the user in according to the app's seat policy, or throws 403 / 20011. Under `auto` a user without a
   * seat (none, or -1) is activated here while seats remain. An activated user is "beyond the limit" when the
   * limit was lowered below the activated count: seats count in the order they were activated, so the latest
   * activations are the ones refused.
   */
  async admit(app: SeatedApp, userId: string): Promise<void> {
    if (app.seatPolicy === 'open') return;
    const seat = await this.storage.db
      .selectFrom('seats')
      .select(['status', 'updated_at'])
      .where('app_id', '=', app.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const status = (seat?.status ?? SeatStatus.notEnabled) as SeatStatusValue;
    if (status === SeatStatus.disabled) throw seatRefused(app, userId, status, 'disabled');
    if (seat && status === SeatStatus.activated) {
      // within the limit (the usual case) the user's rank need not be counted
      if ((await this.activatedNow(app.id)) <= app.memberLimit) return;
      const activatedBefore = await this.storage.db
        .selectFrom('seats')
        .select(sql<number>`count(*)`.as('n'))
        .where('app_id', '=', app.id)
        .where('status', '=', SeatStatus.activated)
        .where((eb) => eb.or([eb('updated_at', '<', seat.updated_at), eb.and([eb('updated_at', '=', seat.updated_at), eb('user_id', '<', userId)])]))
        .executeTakeFirstOrThrow();
      if (Number(activatedBefore.n) >= app.memberLimit) throw seatRefused(app, userId, status, 'member-limit');
      return;
    }
    if (app.seatPolicy === 'strict') throw seatRefused(app, userId, status, 'not-activated');
    await this.activateOnFirstUse(app, userId);
  }

  async list(appId: string, page: number, size: number): Promise<Seat[]> {
    const rows = await this.storage.db
      .selectFrom('seats')
      .select(['user_id', 'status', 'created_at'])
      .where('app_id', '=', appId)
      .orderBy('created_at')
      .orderBy('user_id')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return rows.map((r) => ({
      userId: r.user_id,
      status: r.status as SeatStatusValue,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async counts(appId: string): Promise<SeatCounts> {
    const row = await this.storage.db
      .selectFrom('seats')
      .select([
        sql<number>`count(*)`.as('total'),
        sql<number>`coalesce(sum(case when status = 1 then 1 else 0 end), 0)`.as('activated'),
      ])
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), activated: Number(row.activated) };
  }

  /**
   * Gives every listed user the status, all or nothing: when activation would take the app past its
   * memberLimit, nothing changes. Setting a status a user already has is a no-op (final-state idempotent).
   */
  async setStatus(appId: string, userIds: readonly string[], status: SeatStatusValue): Promise<void> {
    const unique = [...new Set(userIds)];
    const now = Date.now();
    await this.storage.db.transaction().execute(async (trx) => {
      if (status === SeatStatus.activated) {
        const memberLimit = await lockForActivation(trx, appId);
        const already = await trx
          .selectFrom('seats')
          .select('user_id')
          .where('app_id', '=', appId)
          .where('status', '=', SeatStatus.activated)
          .where('user_id', 'in', unique)
          .execute();
        const activeNow = await activatedCount(trx, appId);
        const after = activeNow + unique.length - already.length;
        if (after > memberLimit) {
          throw new ApiError(
            Errors.memberLimitReached,
            `activating ${unique.length - already.length} more user(s) would make ${after} active seats; the member limit is ${memberLimit}`,
            { memberLimit: memberLimit, activated: activeNow },
          );
        }
      }
      for (let i = 0; i < unique.length; i += 500) {
        const chunk = unique.slice(i, i + 500);
        await trx
          .insertInto('seats')
          .values(chunk.map((userId) => ({ app_id: appId, user_id: userId, status, created_at: now, updated_at: now })))
          .onConflict((oc) =>
            oc.columns(['app_id', 'user_id']).doUpdateSet({ status, updated_at: now }).where('seats.status', '!=', status),
          )
          .execute();
      }
    });
    // this process's admit counts again at once; others within ACTIVATED_COUNT_TTL_MS
    this.activatedCounts.delete(appId);
  }

  /**
   * Activated seats of the app, counted at most once per ACTIVATED_COUNT_TTL_MS per process: admit runs on every
   * user-context call and counting is linear in the seats. A lowered member limit therefore refuses the users
   * beyond it within that time; a seat disabled or activated is read fresh on every call.
   */
  private async activatedNow(appId: string): Promise<number> {
    const now = Date.now();
    const hit = this.activatedCounts.get(appId);
    if (hit && hit.expires > now) return hit.count;
    const count = await activatedCount(this.storage.db, appId);
    if (this.activatedCounts.size > 10_000) this.activatedCounts.clear();
    this.activatedCounts.set(appId, { count, expires: now + ACTIVATED_COUNT_TTL_MS });
    return count;
  }

  /** `auto`: takes a seat for a user who has none, under the same lock and limit as an activation call. */
  private async activateOnFirstUse(app: SeatedApp, userId: string): Promise<void> {
    await this.storage.db.transaction().execute(async (trx) => {
      const memberLimit = await lockForActivation(trx, app.id);
      const seat = await trx.selectFrom('seats').select('status').where('app_id', '=', app.id).where('user_id', '=', userId).executeTakeFirst();
      // someone may have activated or disabled the user since admit looked
      if (seat?.status === SeatStatus.activated) return;
      if (seat?.status === SeatStatus.disabled) throw seatRefused(app, userId, SeatStatus.disabled, 'disabled');
      if ((await activatedCount(trx, app.id)) >= memberLimit) throw seatRefused(app, userId, SeatStatus.notEnabled, 'member-limit');
      const now = Date.now();
      await trx
        .insertInto('seats')
        .values({ app_id: app.id, user_id: userId, status: SeatStatus.activated, created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['app_id', 'user_id']).doUpdateSet({ status: SeatStatus.activated, updated_at: now }))
        .execute();
    });
    this.activatedCounts.delete(app.id);
  }
}

/**
 * Touching the app row takes its write lock first, so two concurrent activations of one app cannot both pass
 * the limit check (row lock on PostgreSQL, the database write lock on SQLite). Returns the member limit.
 */
async function lockForActivation(trx: Transaction<Database>, appId: string): Promise<number> {
  const locked = await trx
    .updateTable('apps')
    .set({ updated_at: sql`updated_at` })
    .where('id', '=', appId)
    .returning('member_limit')
    .executeTakeFirstOrThrow();
  return locked.member_limit;
}

async function activatedCount(db: Kysely<Database>, appId: string): Promise<number> {
  const row = await db
    .selectFrom('seats')
    .select(sql<number>`count(*)`.as('n'))
    .where('app_id', '=', appId)
    .where('status', '=', SeatStatus.activated)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function seatRefused(app: SeatedApp, userId: string, seatStatus: SeatStatusValue, reason: SeatRefusal): ApiError {
  const why: Record<SeatRefusal, string> = {
    disabled: 'the seat is disabled',
    'not-activated': 'the seat is not activated',
    'member-limit': `all ${app.memberLimit} seats of the member limit are taken`,
  };
  return new ApiError(Errors.seatRequired, `user ${userId} may not use application ${app.id}: ${why[reason]} (seat policy ${app.seatPolicy})`, {
    userId,
    seatStatus,
    seatPolicy: app.seatPolicy,
    reason,
  });
}
