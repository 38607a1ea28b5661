import type { EditorBoot } from '../../src/model/editor-boot.js';

export type { EditorBoot, EditorLanguage, EditorPermissions, EditorFileType } from '../../src/model/editor-boot.js';

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
