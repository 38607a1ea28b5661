import type { EditorBoot } from '../../src/model/editor-boot.js';

export type { EditorBoot, EditorLanguage, EditorPermissions, EditorFileType, EditorSessionTicket } from '../../src/model/editor-boot.js';

/** What the server's error page reports to the SDK (src/routes/editor-page/html.ts). */
export interface ErrorReport {
  code: number;
  message: string;
  channel: string | null;
  messageExpires: number;
}

function readJson<T>(id: string): T | undefined {
  const element = document.getElementById(id);
  if (!element?.textContent) return undefined;
  return JSON.parse(element.textContent) as T;
}

/** The page's boot data, or its error report when the server answered an error page instead. */
export function readPage(): { boot: EditorBoot } | { error: ErrorReport } {
  const error = readJson<ErrorReport>('svc-error');
  if (error) return { error };
  const boot = readJson<EditorBoot>('svc-boot');
  if (!boot) throw new Error('the editor page carries neither boot data nor an error');
  return { boot };
}

/** Query parameters of the page's address that are credentials: the SDK puts them there, the page takes them out. */
const CREDENTIAL_PARAMETERS = ['token', 'signature'];

/**
 * Takes the integrator's token and signature out of the page's address as it loads (history.replaceState), so
 * they are not in the address the page shows, keeps in its history or hands on (docs/SDK.md "Sessions without
 * tokens in URLs"); the service already exchanged them for the page's editor session.
 */
export function forgetCredentialsInAddress(): void {
  const url = new URL(window.location.href);
  const present = CREDENTIAL_PARAMETERS.filter((name) => url.searchParams.has(name));
  if (present.length === 0) return;
  for (const name of present) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}
