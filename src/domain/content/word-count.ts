/**
 * Word count (docs/CONTENT-MODEL.md "Word count"): every CJK character counts as one word (Han ideographs,
 * Hiragana, Katakana, Hangul syllables and jamo, CJK compatibility ideographs); elsewhere a word is a run of
 * letters, digits and combining marks, joined by inner apostrophes, hyphens, periods or underscores
 * ("don't", "e-mail", "3.14", "snake_case" are one word each). Punctuation, symbols and emoji alone are not words.
 */

// `v` flag: set intersection keeps CJK punctuation (、。「」, which share the scripts' extensions) out.
const CJK_CHAR = String.raw`[[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]&&[\p{L}\p{N}]]`;
const WORD_CHAR = String.raw`[[\p{L}\p{N}\p{M}]--[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]]`;
const JOINER = String.raw`['’\-._]`;
const TOKEN = new RegExp(`${CJK_CHAR}|${WORD_CHAR}+(?:${JOINER}${WORD_CHAR}+)*`, 'gv');

export function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(TOKEN)) count++;
  return count;
}

/**
 * Occurrences of each keyword in `text`: case-insensitive (Unicode lower case), non-overlapping, counted
 * anywhere in the text (a keyword inside a longer word counts, as in CJK text there are no word boundaries).
 * An empty keyword counts 0.
 */
export function countKeywords(text: string, keywords: readonly string[]): Record<string, number> {
  const haystack = text.toLowerCase();
  const counts: Record<string, number> = {};
  for (const keyword of keywords) {
    const needle = keyword.toLowerCase();
    let count = 0;
    if (needle.length > 0) {
      for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
    }
    counts[keyword] = count;
  }
  return counts;
}
