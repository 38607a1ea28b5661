/** Longest display name kept, in characters (code points); a longer one is cut. */
export const MAX_FILENAME_LENGTH = 255;

/**
 * Characters removed from names: controls (C0, DEL, C1), format characters (bidirectional overrides,
 * zero-width ones, which can make `evil.exe` read as `exe.live`), lone surrogates and line/paragraph separators.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * The name an attachment is shown and downloaded under, from what a client sent: only the last segment of a
 * path (`../../etc/passwd` → `passwd`, `C:\x\a.png` → `a.png`), no unsafe characters, no leading dots, no
 * white space at either end, at most 255 characters; `fallback` when nothing is left.
 */
export function displayName(raw: string | undefined, fallback = 'file'): string {
  const lastSegment = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment.replace(UNSAFE, '').trim().replace(/^\.+/, '').trim();
  const name = Array.from(cleaned).slice(0, MAX_FILENAME_LENGTH).join('').trimEnd();
  return name.length > 0 ? name : fallback;
}
