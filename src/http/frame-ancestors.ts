import type { App } from '../apps/app.js';
import { checkFrameOrigin } from '../apps/frame-origins.js';

/**
 * The value of the `frame-ancestors` directive of the editor page's Content-Security-Policy for an
 * application: `*` when it lists no allowed host origins (any page may frame the editor), else its origins
 * separated by spaces, e.g. `Content-Security-Policy: frame-ancestors ${frameAncestors(app)}`.
 *
 * The list was validated when it was stored; every entry is checked again here anyway, so a hand-edited
 * database can never put `;`, `,`, quotes or a line break into a response header. A list none of whose
 * entries survives gives `'none'` (framing refused) rather than falling open to `*`.
 */
export function frameAncestors(app: Pick<App, 'frameOrigins'>): string {
  if (app.frameOrigins.length === 0) return '*';
  const origins = new Set<string>();
  for (const entry of app.frameOrigins) {
    const checked = typeof entry === 'string' ? checkFrameOrigin(entry) : undefined;
    if (checked?.ok) origins.add(checked.origin);
  }
  return origins.size === 0 ? "'none'" : [...origins].join(' ');
}
