/** A time in the page's language: `short` in conversation lists, `medium` in the history. */
export function formatTime(iso: string, dateStyle: 'short' | 'medium' = 'short'): string {
  return new Date(iso).toLocaleString(document.documentElement.lang || undefined, { dateStyle, timeStyle: 'short' });
}
