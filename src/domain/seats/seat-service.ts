import { sql } from 'kysely';
import { ApiError, Errors } from '../../errors.js';
import type { Storage } from '../../storage/database.js';

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

/** User seats of an application: who may use the editors, bounded by the app's memberLimit. */
export class SeatService {
  constructor(private readonly storage: Storage) {}

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
        // Touching the app row takes its write lock first, so two concurrent activations of one app
        // cannot both pass the limit check (row lock on PostgreSQL, the database write lock on SQLite).
        const locked = await trx
          .updateTable('apps')
          .set({ updated_at: sql`updated_at` })
          .where('id', '=', appId)
          .returning('member_limit')
          .executeTakeFirstOrThrow();
        const memberLimit = locked.member_limit;
        const already = await trx
          .selectFrom('seats')
          .select('user_id')
          .where('app_id', '=', appId)
          .where('status', '=', SeatStatus.activated)
          .where('user_id', 'in', unique)
          .execute();
        const activeNow = await trx
          .selectFrom('seats')
          .select(sql<number>`count(*)`.as('n'))
          .where('app_id', '=', appId)
          .where('status', '=', SeatStatus.activated)
          .executeTakeFirstOrThrow();
        const after = Number(activeNow.n) + unique.length - already.length;
        if (after > memberLimit) {
          throw new ApiError(
            Errors.memberLimitReached,
            `activating ${unique.length - already.length} more user(s) would make ${after} active seats; the member limit is ${memberLimit}`,
            { memberLimit: memberLimit, activated: Number(activeNow.n) },
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
  }
}
