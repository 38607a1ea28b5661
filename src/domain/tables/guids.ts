import crypto from 'node:crypto';

/** 12 random bytes: 16 URL-safe characters, 96 bits, never guessed or repeated in practice. */
const RANDOM_BYTES = 12;
const RANDOM_CHARS = 16;

export type GuidKind = 'tbl' | 'viw' | 'col' | 'row';

/** A new guid: a three-letter kind (tbl, viw, col, row) and 16 random URL-safe characters. */
export function newGuid(kind: GuidKind): string {
  return kind + crypto.randomBytes(RANDOM_BYTES).toString('base64url');
}

/** `count` new guids of one kind from a single call to the random source (bulk row inserts). */
export function newGuids(kind: GuidKind, count: number): string[] {
  // 12 bytes encode to exactly 16 base64url characters, so the encoded buffer splits evenly.
  const text = crypto.randomBytes(RANDOM_BYTES * count).toString('base64url');
  const guids = new Array<string>(count);
  for (let i = 0; i < count; i++) guids[i] = kind + text.slice(i * RANDOM_CHARS, (i + 1) * RANDOM_CHARS);
  return guids;
}
