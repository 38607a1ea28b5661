/**
 * How an application's seats govern who may use it (README "Seats"):
 * - `open`: everyone the integrator vouches for, whatever their seat (the behaviour before seat policies);
 * - `auto`: a user without a seat is activated on first use while seats remain; a disabled user, or one
 *   beyond the member limit, is refused;
 * - `strict`: only activated users within the member limit.
 */
export const SEAT_POLICIES = ['open', 'auto', 'strict'] as const;
export type SeatPolicy = (typeof SEAT_POLICIES)[number];

export function isSeatPolicy(value: unknown): value is SeatPolicy {
  return typeof value === 'string' && (SEAT_POLICIES as readonly string[]).includes(value);
}

/**
 * The policy of a new application that did not name one: a member limit given at creation is meant to limit
 * something (`auto`); without one, the application stays `open`, as every application was before.
 */
export function defaultSeatPolicy(memberLimitGiven: boolean): SeatPolicy {
  return memberLimitGiven ? 'auto' : 'open';
}
